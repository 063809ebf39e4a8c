import { describe, expect, it } from 'vitest';
import { parseTemplateMappings, type TemplateMappings } from './wechat-templates.ts';

const ALERT: TemplateMappings = {
  default: {
    id: 'tpl-1',
    data: { thing1: 'machine', character_string2: 'sn', thing3: 'content', time4: 'time' },
  },
};

describe('WECHAT_TEMPLATES', () => {
  it('takes a default template and one per kind of message', () => {
    const json = JSON.stringify({
      ...ALERT,
      daily: { id: 'tpl-2', data: { phrase1: 'kind', date2: 'time', thing3: 'title' } },
    });
    expect(parseTemplateMappings(json)).toEqual(JSON.parse(json));
  });

  it.each([
    ['not json', /must be JSON/],
    [{ alarm: ALERT.default }, /"default"/],
    [{ default: { data: ALERT.default.data } }, /needs "id"/],
    // WeChat hides both since 2023-05-04: a mapping that fills them shows nothing.
    [{ default: { id: 't', data: { first: 'title', keyword1: 'content' } } }, /first line/],
    [{ default: { id: 't', data: { remark: 'content' } } }, /remark/],
    [{ default: { id: 't', data: { amount1: 'sn' } } }, /only thing/],
    [{ default: { id: 't', data: { thing1: 'everything' } } }, /not one of/],
    // A character_string takes no Chinese, a time takes only a time.
    [{ default: { id: 't', data: { character_string1: 'machine' } } }, /cannot show "machine"/],
    [{ default: { id: 't', data: { time1: 'content' } } }, /cannot show "content"/],
  ])('refuses %j', (value, message) => {
    const json = typeof value === 'string' ? value : JSON.stringify(value);
    expect(parseTemplateMappings(json)).toMatch(message);
  });
});
