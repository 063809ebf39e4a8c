import type { TestProject } from 'vitest/node';
import { startDingtalkFake } from '../../apps/server/src/test/fakes/dingtalk-fake.ts';
import { startWechatFake } from '../../apps/server/src/test/fakes/wechat-oauth-fake.ts';
import { assertChromium } from './browser.ts';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The WeChat and DingTalk fakes the server signs in with (their /__fake/ controls). */
    wechatFakeUrl: string;
    dingtalkFakeUrl: string;
  }
}

/** One server for the whole run: a first start seeds the demo factory (~10–20 s). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertChromium();
  const [wechat, dingtalk] = await Promise.all([startWechatFake(), startDingtalkFake()]);
  const server = await startServer({
    ...wechat.env,
    ...dingtalk.env,
    // The gateways journey binds to a gateway that is offline: its 504 comes after this.
    GATEWAY_COMMAND_TIMEOUT_MS: '5000',
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('wechatFakeUrl', wechat.baseUrl);
  project.provide('dingtalkFakeUrl', dingtalk.baseUrl);
  return async () => {
    await server.stop();
    await Promise.all([wechat.close(), dingtalk.close()]);
  };
}
