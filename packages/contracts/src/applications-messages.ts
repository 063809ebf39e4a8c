// The account application's copy, apart from the schemas: /userApply and /userAudit show it at
// once, and zod (≈ 25 KB gzip) would come along with any import of applications.ts.
export const applicationMessages = {
  nameRequired: '请输入姓名',
  psnCodeRequired: '请输入工号',
  mobileRequired: '请输入手机号',
  mobileInvalid: '请输入正确的手机号',
  codeRequired: '请输入验证码',
  codeInvalid: '验证码错误或已过期',
  sendTooSoon: '验证码发送过于频繁，请稍后再试',
  sendLimitReached: '验证码发送量已达上限，请稍后再试',
  codeSent: '验证码已发送',
  tooLong: '内容过长',
  submitted: '申请已提交',
  accountExists: '该工号已有账号，请直接登录',
  pendingExists: '该工号已有待审核的申请',
  notFound: '未找到申请记录',
} as const;
