import type { TestProject } from 'vitest/node';
import { startDingtalkFake } from '../../apps/server/src/test/fakes/dingtalk-fake.ts';
import { startWechatFake } from '../../apps/server/src/test/fakes/wechat-oauth-fake.ts';
import { assertChromium } from './browser.ts';
import { freePort, startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The WeChat and DingTalk fakes the server signs in with (their /__fake/ controls). */
    wechatFakeUrl: string;
    dingtalkFakeUrl: string;
    /** The port of the spare PLC the gateways journey binds (LW-P1-012's, not 502). */
    sparePlcPort: number;
  }
}

/** One server for the whole run: a first start seeds the demo factory (~10–20 s). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertChromium();
  // WeChat returns to PUBLIC_URL (the browser's address here), so it is known before the start.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const [wechat, dingtalk] = await Promise.all([
    startWechatFake({ publicUrl }),
    startDingtalkFake(),
  ]);
  const server = await startServer({
    ...wechat.env,
    ...dingtalk.env,
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    // The gateways journey binds to a gateway that is offline: its 504 comes after this.
    GATEWAY_COMMAND_TIMEOUT_MS: '5000',
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('wechatFakeUrl', wechat.baseUrl);
  project.provide('dingtalkFakeUrl', dingtalk.baseUrl);
  project.provide('sparePlcPort', server.demoPlcPort('LW-P1-012'));
  return async () => {
    await server.stop();
    await Promise.all([wechat.close(), dingtalk.close()]);
  };
}
