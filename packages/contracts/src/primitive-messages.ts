/**
 * The messages of primitives.ts's text and date rules, apart from zod so that a page can show one
 * (a list's bad-date notice, say) without zod in its first screen.
 */
export const primitiveMessages = {
  controlCharacter: '不能包含控制字符',
  badDate: '日期格式应为 YYYY-MM-DD 且为有效日期',
  snInvalid: 'SN码只能包含字母、数字、- 和 _',
  snTooLong: 'SN码不能超过64位',
} as const;
