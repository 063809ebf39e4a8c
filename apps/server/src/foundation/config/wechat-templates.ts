/**
 * WECHAT_TEMPLATES, as configuration reads it: which template each kind of message uses and what
 * each of its fields shows. The WeChat channel (notifications/channels/wechat-template.ts) fills
 * the fields; which source a field type can take is written here, once, for both.
 */

/** What can go into a template field. */
export const TEMPLATE_SOURCES = ['title', 'machine', 'sn', 'content', 'time', 'kind'] as const;
export type TemplateSource = (typeof TEMPLATE_SOURCES)[number];

/** One template: its id in the official account and what each of its fields gets. */
export interface TemplateMapping {
  id: string;
  data: Record<string, TemplateSource>;
}

/** By kind of message ('alarm', 'daily', …), and `default` for the others. */
export type TemplateMappings = Record<string, TemplateMapping> & { default: TemplateMapping };

/**
 * The field types this product fills, with the limits of WeChat's table of category-template
 * values (参数值内容限制说明: "thing.DATA 事物 20个以内字符 可汉字、数字、字母或符号组合",
 * "character_string.DATA 字符串 32位以内数字、字母或符号", "time.DATA 时间 24小时制时间格式（支持
 * +年月日）… 例如：15:01，或：2019年10月1日 15:01", "date.DATA 日期 年月日格式", "phrase.DATA 汉字
 * 5个以内汉字"), and `keyword` of the older industry templates, shown up to 20 characters.
 */
type FieldType = 'thing' | 'keyword' | 'character_string' | 'time' | 'date' | 'phrase';
const FIELD_KEY = /^(thing|keyword|character_string|time|date|phrase)(\d+)$/;

/** Which sources a field type can show without WeChat refusing or cutting them. */
const FITS: Record<FieldType, readonly TemplateSource[]> = {
  thing: ['title', 'machine', 'sn', 'content', 'kind'],
  keyword: ['title', 'machine', 'sn', 'content', 'kind'],
  character_string: ['sn'],
  time: ['time'],
  date: ['time'],
  phrase: ['kind'],
};

export const fieldType = (key: string): FieldType | null =>
  (FIELD_KEY.exec(key)?.[1] as FieldType | undefined) ?? null;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads WECHAT_TEMPLATES: `{"default": {"id": "…", "data": {"thing1": "machine", …}}, "daily":
 * {…}}`. Returns the mappings, or why they cannot be used (one line, for the start-up error).
 */
export const parseTemplateMappings = (json: string): TemplateMappings | string => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return 'must be JSON: {"default": {"id": "<template_id>", "data": {"thing1": "machine", …}}}';
  }
  if (!isRecord(parsed) || !isRecord(parsed.default))
    return 'needs a "default" template (and may name one per kind of message)';
  for (const [kind, template] of Object.entries(parsed)) {
    if (!isRecord(template) || typeof template.id !== 'string' || !template.id)
      return `${kind}: needs "id", the template_id`;
    if (!isRecord(template.data) || Object.keys(template.data).length === 0)
      return `${kind}: needs "data", the template's fields and what each shows`;
    for (const [key, source] of Object.entries(template.data)) {
      if (key === 'first' || key === 'remark')
        return `${kind}.${key}: WeChat no longer shows the first line or the remark (since 2023-05-04); map the template's own fields`;
      const type = fieldType(key);
      if (!type)
        return `${kind}.${key}: only thing, character_string, time, date, phrase and keyword fields are filled`;
      if (!TEMPLATE_SOURCES.includes(source as TemplateSource))
        return `${kind}.${key}: "${String(source)}" is not one of ${TEMPLATE_SOURCES.join(', ')}`;
      if (!FITS[type].includes(source as TemplateSource))
        return `${kind}.${key}: a ${type} field cannot show "${String(source)}" (it takes ${FITS[type].join(', ')})`;
    }
  }
  return parsed as TemplateMappings;
};
