import {
  fieldType,
  type TemplateMapping,
  type TemplateSource,
} from '../../foundation/config/wechat-templates.ts';
import type { NoticeFields } from '../notice.ts';

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

/** Five Chinese characters at most, so a `phrase` field takes them whole. */
const KIND_LABELS: Record<string, string> = {
  alarm: '设备报警',
  realTimeReminder: '停机提醒',
  threeParameters: '参数未达标',
  daily: '生产日报',
  week: '生产周报',
  'faca-task': '纠正任务',
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
