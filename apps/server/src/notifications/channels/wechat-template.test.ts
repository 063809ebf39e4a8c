import { describe, expect, it } from 'vitest';
import type { TemplateMappings } from '../../foundation/config/wechat-templates.ts';
import { fitToField, templateData } from './wechat-template.ts';

const ALERT: TemplateMappings = {
  default: {
    id: 'tpl-1',
    data: { thing1: 'machine', character_string2: 'sn', thing3: 'content', time4: 'time' },
  },
};

describe('a value as its field takes it', () => {
  it('cuts a thing to 20 characters on one line, counting characters, not UTF-16 units', () => {
    expect(fitToField('thing1', '贴片机')).toBe('贴片机');
    expect(fitToField('thing1', 'a\nb\t c')).toBe('a b c');
    expect(fitToField('thing2', '一'.repeat(21))).toBe(`${'一'.repeat(19)}…`);
    expect([...fitToField('thing2', '𠀀'.repeat(25))]).toHaveLength(20);
    expect(fitToField('keyword1', '二'.repeat(30))).toHaveLength(20);
    expect(fitToField('thing3', '')).toBe('-');
  });

  it('keeps a character_string to 32 digits, letters and symbols', () => {
    expect(fitToField('character_string2', 'LW-S1-005')).toBe('LW-S1-005');
    expect(fitToField('character_string2', 'LW-S1-005 贴片机')).toBe('LW-S1-005');
    expect(fitToField('character_string2', 'x'.repeat(40))).toBe(`${'x'.repeat(29)}...`);
  });

  it('keeps a phrase to five Chinese characters', () => {
    expect(fitToField('phrase1', '参数未达标')).toBe('参数未达标');
    expect(fitToField('phrase1', 'FACA任务')).toBe('任务');
  });
});

describe('template data', () => {
  const message = {
    kind: 'realTimeReminder',
    title: 'LW-S1-002 贴片机 停机提醒',
    body: 'SN：LW-S1-002 已故障停机超过5分钟',
    createdAt: new Date('2026-11-26T16:05:09Z'),
  };

  it('fills each field from the message, the time in the factory’s zone', () => {
    expect(
      templateData(
        ALERT.default,
        {
          ...message,
          fields: { sn: 'LW-S1-002', machine: '贴片机', content: '故障停机超过5分钟' },
        },
        'Asia/Shanghai',
      ),
    ).toEqual({
      thing1: { value: '贴片机' },
      character_string2: { value: 'LW-S1-002' },
      thing3: { value: '故障停机超过5分钟' },
      time4: { value: '2026年11月27日 00:05' },
    });
  });

  it('falls back to the SN, the title and the text for a message written without its facts', () => {
    const data = templateData(
      { id: 't', data: { thing1: 'machine', thing2: 'content', date3: 'time', phrase4: 'kind' } },
      { ...message, fields: {} },
      'UTC',
    );
    expect(data).toEqual({
      thing1: { value: 'LW-S1-002 贴片机 停机提醒' },
      thing2: { value: 'SN：LW-S1-002 已故障停机超…' },
      date3: { value: '2026年11月26日' },
      phrase4: { value: '停机提醒' },
    });
  });
});
