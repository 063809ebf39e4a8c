import { identityApi } from '@linewatch/contracts/identity-api';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { ApplyPage } from '../pages/admin.page.ts';
import { CenterPage } from '../pages/center.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { IN_APP_USER_AGENTS } from '../support/browser.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';

// Signing in from inside WeChat and DingTalk, against the fakes the e2e server is configured with
// (support/global-setup.ts). The demo operator binds their messaging account once, is signed in
// without typing on the next visit, and logging out unbinds it.

const OPERATOR = { psnCode: 'operator', password: 'Operator@2026' };
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

/** A new webview: no cookie, no session storage (what a fresh WeChat menu tap may give). */
const forgetSession = async (page: Page) => {
  await page.context().clearCookies();
  await page.evaluate(() => sessionStorage.clear());
};

/** From the login page, someone without an account finds the application form. */
const applyFromLogin = async (page: Page) => {
  const login = new LoginPage(page);
  // DingTalk's 钉钉未绑定用户请登录 from the login page goes first.
  await login.toast.waitUntilGone();
  expect((await login.applyLinks.textContent())?.trim()).toBe('没有账号？申请账号|查看申请进度');
  await login.openApplication();
  await new ApplyPage(page).waitUntilShown();
  expect(currentPath(page)).toBe(paths.userApply);
};

const centreShown = async (page: Page) => {
  const centre = new CenterPage(page);
  await centre.waitUntilShown();
  expect(currentPath(page)).toBe(paths.center);
  return centre;
};

/** The operator signs in on the shown form (binding the messaging account) and lands home. */
const signInOnTheForm = async (page: Page) => {
  const login = new LoginPage(page);
  await login.signIn(OPERATOR.psnCode, OPERATOR.password);
  await centreShown(page);
  await login.toast.waitUntilGone();
};

describe('sign-in inside WeChat', () => {
  const journey = useJourney('signin-wechat', { userAgent: IN_APP_USER_AGENTS.wechat });
  const openId = unique('o-e2e');

  it('opens the personal centre, goes through WeChat and is asked to bind the account', async () => {
    const { page } = journey;
    await fetch(`${inject('wechatFakeUrl')}/__fake/user`, {
      method: 'POST',
      body: JSON.stringify({ openid: openId }),
    });
    await page.goto(paths.center);
    const login = new LoginPage(page);
    await login.waitForForm();
    await expect.poll(() => login.binds()).toBe(true);
    // Back from WeChat with the code spent and dropped from the address.
    expect(currentPath(page)).toBe(links.login(paths.center));
    expect(await login.client()).toBe('wechat');
    expect(await login.subtitleText()).toBe('使用工号登录，绑定微信账号');
    await journey.shot(page, 'bind-form');
  });

  it('signs in with the password, which binds WeChat, and lands on the centre', async () => {
    await signInOnTheForm(journey.page);
    await journey.shot(journey.page, 'bound-and-signed-in');
  });

  it('opens the app again in a new webview and is signed in without typing', async () => {
    const { page } = journey;
    await forgetSession(page);
    await page.goto(paths.center);
    const centre = await centreShown(page);
    expect(await centre.nicknameText()).not.toBe('--');
    await new LoginPage(page).toast.waitUntilGone();
    await journey.shot(page, 'silent-sign-in');
  });

  it('logs out: is told WeChat will be unbound, confirms, and is asked to bind again next time', async () => {
    const { page } = journey;
    const centre = new CenterPage(page);
    await centre.askToLogOut();
    expect(await centre.dialogText()).toBe(identityMessages.logoutConfirm);
    await journey.shot(page, 'logout-confirm');
    await centre.confirmLogOut();
    const login = new LoginPage(page);
    await login.waitForForm();

    await page.goto(paths.center);
    await login.waitForForm();
    await expect.poll(() => login.binds()).toBe(true);
    expect(currentPath(page)).toBe(links.login(paths.center));
    await journey.shot(page, 'unbound-after-logout');
  });

  it('someone without an account taps 申请账号 on the login page and gets the application', async () => {
    await applyFromLogin(journey.page);
    await journey.shot(journey.page, 'apply');
  });
});

describe('sign-in inside DingTalk', () => {
  const journey = useJourney('signin-dingtalk', { userAgent: IN_APP_USER_AGENTS.dingtalk });
  const userid = unique('ding-e2e');

  /** DingTalk's check of a dd.config, by the fake, for the page DingTalk loaded. */
  const checkJsapi = async (check: {
    pageUrl: string;
    nonceStr: string;
    timeStamp: number;
    signature: string;
  }) => {
    const reply = await fetch(`${inject('dingtalkFakeUrl')}/__fake/jsapi-check`, {
      method: 'POST',
      body: JSON.stringify(check),
    });
    return ((await reply.json()) as { ok: boolean }).ok;
  };
  let exposed = false;

  /**
   * There is no DingTalk runtime outside DingTalk: the page gets a stub JSAPI whose
   * requestAuthCode answers with a code the DingTalk fake issued for this user. Like
   * dingtalk-jsapi, once dd.config is called dd.ready waits for DingTalk to accept the signature,
   * which the fake checks over the page DingTalk loaded (the address at the page's start, before
   * the app routes anywhere), and never comes if it is refused.
   */
  const nextAuthCode = async (page: Page) => {
    const reply = await fetch(`${inject('dingtalkFakeUrl')}/__fake/code`, {
      method: 'POST',
      body: JSON.stringify({ userid, mobile: '13800138000' }),
    });
    const { code } = (await reply.json()) as { code: string };
    if (!exposed) {
      await page.exposeFunction('checkJsapi', checkJsapi);
      exposed = true;
    }
    await page.addInitScript((authCode: string) => {
      const loaded = window.location.href;
      const host = window as unknown as {
        checkJsapi(check: object): Promise<boolean>;
        dd: unknown;
      };
      let accepted: Promise<boolean> | null = null;
      host.dd = {
        config: (options: { nonceStr: string; timeStamp: number; signature: string }) => {
          accepted = host.checkJsapi({ ...options, pageUrl: loaded });
        },
        ready: (callback: () => void) => {
          void (accepted ?? Promise.resolve(true)).then((ok) => ok && callback());
        },
        error: () => undefined,
        runtime: { permission: { requestAuthCode: async () => ({ code: authCode }) } },
      };
    }, code);
  };

  it('opens the personal centre, is told DingTalk is not bound, and sees the DingTalk form', async () => {
    const { page } = journey;
    await nextAuthCode(page);
    const configReply = page.waitForResponse((r) =>
      r.url().includes(identityApi.dingdingConfig.path),
    );
    await page.goto(paths.center);
    const login = new LoginPage(page);
    await login.toast.waitForText(identityMessages.dingTalkNotBound);
    await login.waitForForm();
    expect(await login.client()).toBe('dingtalk');
    expect(await login.binds()).toBe(true);
    // Only the redirect is kept for DingTalk (docs/product.md section 2).
    expect(currentPath(page)).toBe(links.login(paths.center));
    // The page was signed as DingTalk loaded it (the centre), not as the guard routed it (/login).
    const { data: config } = (await (await configReply).json()) as {
      data: { nonceStr: string; timeStamp: number; signature: string };
    };
    const loaded = new URL(paths.center, inject('baseUrl')).toString();
    expect(await checkJsapi({ ...config, pageUrl: loaded })).toBe(true);
    await journey.shot(page, 'not-bound');
    await login.toast.waitUntilGone();
  });

  it('binds with the password and lands on the centre', async () => {
    await signInOnTheForm(journey.page);
    await journey.shot(journey.page, 'bound-and-signed-in');
  });

  it('opens the app again in a new webview and is signed in without typing', async () => {
    const { page } = journey;
    await forgetSession(page);
    await nextAuthCode(page);
    await page.goto(paths.center);
    await centreShown(page);
    await new LoginPage(page).toast.waitUntilGone();
    await journey.shot(page, 'silent-sign-in');
  });

  it('logs out: is told DingTalk will be unbound, confirms, and must bind again', async () => {
    const { page } = journey;
    const centre = new CenterPage(page);
    await centre.askToLogOut();
    expect(await centre.dialogText()).toBe(identityMessages.logoutConfirm);
    await journey.shot(page, 'logout-confirm');
    await nextAuthCode(page);
    await centre.confirmLogOut();
    const login = new LoginPage(page);
    await login.waitForForm();
    await expect.poll(() => login.binds()).toBe(true);
    await journey.shot(page, 'unbound-after-logout');
  });

  it('someone without an account taps 申请账号 on the login page and gets the application', async () => {
    await applyFromLogin(journey.page);
    await journey.shot(journey.page, 'apply');
  });
});
