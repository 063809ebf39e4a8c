import type { NoticeFields } from '../../notifications/service.ts';

/**
 * The WeChat template message as WeChat shows it since 2023-05-04: "去除首行内容", "去除尾部/备注
 * 内容", "中间的主内容中，单个字段内容不超过20个字，且不支持换行" — dropped or cut, never refused
 * ("此措施不会影响模板消息下发 … 平台会自动去掉相关内容",
 * https://developers.weixin.qq.com/community/develop/doc/000a2ae286cdc0f41a8face4c51801). So a
 * message's title in `first` and its text in one keyword never reached anyone whole. A category
 * template (类目模板) names its fields by type and number (thing1, time2, character_string3…) and
 * WeChat refuses a value outside the type's rules with 47003 "argument invalid! data.<key>.value
 * invalid". Which field of the factory's template gets what is configuration (WECHAT_TEMPLATES,
 * one template per kind of message or a default), and each value is made to fit its field here.
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

/** Five Chinese characters at most, so a `phrase` field takes them whole. */
const KIND_LABELS: Record<string, string> = {
  alarm: '设备报警',
  realTimeReminder: '停机提醒',
  threeParameters: '参数未达标',
  daily: '生产日报',
  week: '生产周报',
  'faca-task': '纠正任务',
};

const fieldType = (key: string): FieldType | null =>
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

/** Characters, not UTF-16 units: WeChat counts 20 characters, and a 𠀀 is one. */
const cut = (text: string, max: number, ellipsis: string) => {
  const chars = [...text];
  return chars.length <= max
    ? text
    : chars.slice(0, max - [...ellipsis].length).join('') + ellipsis;
};

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const dateTimeParts = (at: Date, timeZone: string) => {
  const p: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  for (const part of format.formatToParts(at)) p[part.type] = part.value;
  return p;
};

/** A value as its field type takes it: never cut or dropped by WeChat, never refused. */
export const fitToField = (key: string, value: string): string => {
  switch (fieldType(key)) {
    case 'thing':
    case 'keyword':
      return cut(oneLine(value), 20, '…') || '-';
    case 'character_string':
      // Digits, letters and symbols only: a machine's SN is, a Chinese word is not.
      return cut(value.replace(/[^\x21-\x7e]/g, ''), 32, '...') || '-';
    case 'phrase':
      return [...value.replace(/[^\p{Script=Han}]/gu, '')].slice(0, 5).join('') || '通知';
    case 'time':
    case 'date':
    case null:
      return value;
  }
};

/** What a message puts into each field of its template (`timeZone`: the factory's). */
export const templateData = (
  mapping: TemplateMapping,
  message: {
    kind: string;
    title: string;
    body: string;
    fields: NoticeFields;
    createdAt: Date;
  },
  timeZone: string,
): Record<string, { value: string }> => {
  const { fields } = message;
  const at = dateTimeParts(message.createdAt, timeZone);
  const date = `${at.year}年${at.month}月${at.day}日`;
  const source = (what: TemplateSource, key: string): string => {
    switch (what) {
      case 'title':
        return message.title;
      case 'machine':
        return fields.machine ?? fields.sn ?? message.title;
      case 'sn':
        return fields.sn ?? '-';
      case 'content':
        return fields.content ?? message.body;
      case 'kind':
        return KIND_LABELS[message.kind] ?? '通知';
      case 'time':
        return fieldType(key) === 'date' ? date : `${date} ${at.hour}:${at.minute}`;
    }
  };
  return Object.fromEntries(
    Object.entries(mapping.data).map(([key, what]) => [
      key,
      { value: fitToField(key, source(what, key)) },
    ]),
  );
};
