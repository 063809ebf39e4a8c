import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startWechatMessageFake,
  type WechatMessageFake,
} from '../../test/fakes/wechat-message-fake.ts';
import type { OutgoingMessage } from './channel.ts';
import { wechatChannel } from './wechat.ts';
import type { TemplateMappings } from '../../foundation/config/wechat-templates.ts';

// WeChat's access token is one per application: whatever one server instance does to get it
// must not break another's sends. Two channels (two instances' clients) against one fake that
// keeps WeChat's documented token rules, on the fake's clock.

const credentials = { appId: 'wx-two', appSecret: 'wx-two-secret' };
const MINUTE_MS = 60_000;

let fake: WechatMessageFake;
let offset = 0;
const clock = () => Date.now() + offset;
const advance = (ms: number) => {
  offset += ms;
  fake.advance(ms);
};
/** The factory's alert template (the fake's tpl-1: 设备 / 编号 / 内容 / 时间). */
const TEMPLATES: TemplateMappings = {
  default: {
    id: 'tpl-1',
    data: { thing1: 'machine', character_string2: 'sn', thing3: 'content', time4: 'time' },
  },
};
const instance = () =>
  wechatChannel(
    {
      apiBase: fake.baseUrl,
      ...credentials,
      templates: TEMPLATES,
      timeZone: 'Asia/Shanghai',
    },
    clock,
  );
let sequence = 0;
const message = (): OutgoingMessage => ({
  deliveryId: `lw-${++sequence}`,
  target: 'open-id-1',
  kind: 'alarm',
  title: '报警',
  body: 'SN：LW-1，报警：E101',
  fields: { sn: 'LW-1', machine: '贴片机', content: 'E101 送料超时' },
  url: null,
  createdAt: new Date(),
});

beforeEach(async () => {
  offset = 0;
  fake = await startWechatMessageFake(credentials);
});
afterEach(() => fake.close());

describe('the WeChat channel on several instances', () => {
  it('never has one instance’s sends refused because another fetched the token', async () => {
    const [a, b] = [instance(), instance()];
    // Six hours of alerts every seven minutes, alternately: three token lifetimes, each
    // renewal landing while the other instance still holds the old token.
    for (let minute = 0; minute < 6 * 60; minute += 7) {
      await a.send(message());
      await b.send(message());
      advance(7 * MINUTE_MS);
    }
    expect(fake.refusedForToken()).toBe(0);
    expect(fake.messages).toHaveLength(sequence);
    expect(fake.forcedRefreshes()).toBe(0);
    // One token per lifetime for both, not one per instance and fetch.
    expect(fake.tokensIssued()).toBeLessThanOrEqual(4);
  });

  it('after the token was voided (a force refresh elsewhere), fetches the new one without forcing', async () => {
    const channel = instance();
    await channel.send(message());
    fake.revokeToken();
    await channel.send(message());
    expect(fake.refusedForToken()).toBe(1);
    expect(fake.messages).toHaveLength(2);
    expect(fake.forcedRefreshes()).toBe(0);
  });
});

describe('the WeChat template message as WeChat shows it', () => {
  it('fills every field of the template whole: 20 characters a thing, SN as a string, local time', async () => {
    await instance().send({
      ...message(),
      title: 'LW-S1-005 回流焊炉 报警',
      body: 'SN：LW-S1-005，设备：回流焊炉，报警：E518 温度过高',
      fields: {
        sn: 'LW-S1-005',
        machine: '回流焊炉（八温区氮气保护型）二号线主机（备用）',
        content: 'E518 温度过高：第三温区\n超过设定上限十五摄氏度',
      },
      // 07:26 the next morning in the factory, 24 characters as ISO.
      createdAt: new Date('2026-11-26T23:26:50.748Z'),
    });
    expect(fake.refusedData).toEqual([]);
    expect(fake.messages.at(-1)?.data).toEqual({
      thing1: { value: '回流焊炉（八温区氮气保护型）二号线主机…' },
      character_string2: { value: 'LW-S1-005' },
      thing3: { value: 'E518 温度过高：第三温区 超过设定…' },
      time4: { value: '2026年11月27日 07:26' },
    });
  });

  it('uses the template configured for a kind of message, and the default for the others', async () => {
    const channel = wechatChannel(
      {
        apiBase: fake.baseUrl,
        ...credentials,
        templates: {
          ...TEMPLATES,
          daily: {
            id: 'tpl-1',
            data: { thing1: 'kind', character_string2: 'sn', thing3: 'content', time4: 'time' },
          },
        },
        timeZone: 'Asia/Shanghai',
      },
      clock,
    );
    await channel.send({
      ...message(),
      kind: 'daily',
      fields: {
        sn: 'LW-S1-001,LW-S1-002,LW-S1-003,LW-A2-011',
        machine: '4台机台',
        content: '2026-11-26',
      },
    });
    expect(fake.refusedData).toEqual([]);
    expect(fake.messages.at(-1)?.data).toMatchObject({
      thing1: { value: '生产日报' },
      character_string2: { value: 'LW-S1-001,LW-S1-002,LW-S1-003...' },
      thing3: { value: '2026-11-26' },
    });
  });
});
