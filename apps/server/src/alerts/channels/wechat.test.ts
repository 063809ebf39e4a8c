import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startWechatMessageFake,
  type WechatMessageFake,
} from '../../test/fakes/wechat-message-fake.ts';
import type { OutgoingMessage } from './channel.ts';
import { wechatChannel } from './wechat.ts';

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
const instance = () =>
  wechatChannel({ apiBase: fake.baseUrl, ...credentials, templateId: 'tpl-two' }, clock);
let sequence = 0;
const message = (): OutgoingMessage => ({
  deliveryId: `lw-${++sequence}`,
  target: 'open-id-1',
  kind: 'alarm',
  title: '报警',
  body: 'SN：LW-1，报警：E101',
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
