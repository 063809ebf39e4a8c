import { adminApi } from '@linewatch/contracts/admin-api';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import type { UserProfile } from '@linewatch/contracts/identity';
import { identityApi } from '@linewatch/contracts/identity-api';
import { screen } from '@testing-library/react';
import { Dialog, Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberLoadedUrl } from '../../../shared/client-env.ts';
import { links, paths } from '../../../shared/paths.ts';
import { useSession } from '../../../shared/session-store.ts';
import { buildUserInfo, buildUserProfile } from '../../../testing/builders.ts';
import { answerDialog, dialogsNow, newDialog } from '../../../testing/dialogs.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import type { DingtalkJsapi } from '../dingtalk-bridge.ts';

// The two messaging-app login pages and logging out, in WeChat's and DingTalk's browsers.

// A sign-in renders the login page, then the page it returns to, both loaded lazily.
vi.setConfig({ testTimeout: 20_000 });

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Chrome/120 Mobile MicroMessenger/8.0.47';
const DINGTALK_UA = 'Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 DingTalk/7.5.0';

const inBrowser = (userAgent: string) =>
  spies.push(vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent));

/** The server of a visitor without a session who signs in and opens the personal centre. */
const serverApi = (signedInWith: UserProfile['signedInWith'] = 'password') =>
  fakeApi()
    .on(identityApi.session, () => failure('0405', '请重新登录', 401))
    .on(identityApi.userInfo, () => buildUserInfo({ name: '张三' }))
    .on(identityApi.userProfile, () => buildUserProfile({ signedInWith }));

let toasts: string[];
const spies: { mockRestore(): void }[] = [];
beforeEach(() => {
  toasts = [];
  spies.push(
    vi.spyOn(Toast, 'show').mockImplementation((props) => {
      if (typeof props === 'object' && typeof props.content === 'string')
        toasts.push(props.content);
      return { close: () => {} };
    }),
  );
});
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
  Dialog.clear();
  delete window.dd;
});

const where = (router: ReturnType<typeof renderPage>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('WeChat login page', () => {
  it('signs a bound openId in without the form, the code exchanged once', async () => {
    inBrowser(WECHAT_UA);
    const api = serverApi('wechat').on(identityApi.wechatUserInfo, () => ({
      openId: 'o-1',
      keyId: 'key-w',
    }));
    const { router } = renderPage(links.login(paths.center, 'code-1', 'state-1'), {
      api,
      signedIn: false,
    });
    await vi.waitFor(() => expect(where(router)).toBe(paths.center), { timeout: 10_000 });
    expect(api.calls(identityApi.wechatUserInfo)).toEqual([{ code: 'code-1', state: 'state-1' }]);
    expect(api.calls(identityApi.wechatBindUser)).toEqual([]);
    expect(useSession.getState()).toMatchObject({ keyId: 'key-w', signedInWith: 'wechat' });
    await vi.waitFor(() => expect(toasts).toContain(identityMessages.loginOk));
  });

  it('binds an unbound openId with the password, and drops the spent code from the address', async () => {
    inBrowser(WECHAT_UA);
    const api = serverApi('wechat')
      .on(identityApi.wechatUserInfo, () => ({ openId: 'o-2' }))
      .on(identityApi.wechatBindUser, () => ({ keyId: 'key-b' }));
    const { router, user } = renderPage(links.login(paths.center, 'code-2', 'state-2'), {
      api,
      signedIn: false,
    });
    // Whether it binds and for which client are state attributes (the e2e pages read them too).
    const page = await screen.findByRole('main', {}, { timeout: 10_000 });
    await vi.waitFor(() => expect(page.dataset.binding).toBe('true'));
    expect(where(router)).toBe(links.login(paths.center));
    expect(screen.getByText('使用工号登录，绑定微信账号')).toBeTruthy();
    // Someone without an account finds the application here too.
    expect(screen.getByRole('link', { name: '申请账号' }).getAttribute('href')).toBe(
      paths.userApply,
    );

    await user.type(screen.getByPlaceholderText('请输入用户名'), 'E1001');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() => expect(where(router)).toBe(paths.center));
    expect(api.calls(identityApi.wechatBindUser)).toMatchObject([
      { psnCode: 'E1001', openId: 'o-2' },
    ]);
    expect(useSession.getState().signedInWith).toBe('wechat');
  });

  it('says 未获取到code on the page, not as an error toast, when WeChat sent no code, and offers the form', async () => {
    inBrowser(WECHAT_UA);
    renderPage(links.login(paths.center), { api: serverApi(), signedIn: false });
    await screen.findByRole('heading', { name: 'Linewatch 设备监控' }, { timeout: 10_000 });
    expect(screen.getByText(identityMessages.noCode)).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();
    // Nothing toasted before the person has done anything.
    expect(toasts).toEqual([]);
  });

  it('shows 获取openid失败 when the code cannot be exchanged', async () => {
    inBrowser(WECHAT_UA);
    const api = serverApi().on(identityApi.wechatUserInfo, () =>
      failure('0500', identityMessages.openIdFailed, 500),
    );
    renderPage(links.login(paths.center, 'bad', 's'), { api, signedIn: false });
    await screen.findByRole('button', { name: '登录' }, { timeout: 10_000 });
    await vi.waitFor(() => expect(toasts).toContain(identityMessages.openIdFailed));
  });
});

describe('DingTalk login page', () => {
  /**
   * DingTalk's JSAPI as dingtalk-jsapi behaves: once dd.config is called, dd.ready waits for
   * DingTalk to accept the signature (lib/sdk/index.js), which it does only for the page it
   * loaded. Here it never does, as for a signature made over a routed address.
   */
  const stubJsapi = (code: string) => {
    let configured = false;
    const dd: DingtalkJsapi & { config(options: unknown): void } = {
      config: () => {
        configured = true;
      },
      ready: (callback) => {
        if (!configured) callback();
      },
      runtime: { permission: { requestAuthCode: vi.fn(async () => ({ code })) } },
    };
    window.dd = dd;
    return { dd };
  };
  const ddConfig = {
    agentId: '1',
    corpId: 'corp-1',
    timeStamp: 1,
    nonceStr: 'n',
    signature: 'sig',
    state: 'dd-state',
  };
  // DingTalk opened the personal centre; the guard routed to /login after that.
  const LOADED = `${window.location.origin}/center?from=workbench`;
  beforeEach(() => rememberLoadedUrl(`${LOADED}#menu`));

  it('gets a code without waiting on a signature, signed for the page DingTalk loaded, and binds an unbound user', async () => {
    inBrowser(DINGTALK_UA);
    const { dd } = stubJsapi('dd-code');
    const api = serverApi('dingtalk')
      .on(identityApi.dingdingConfig, () => ddConfig)
      .on(identityApi.dingdingUserInfo, () => ({ userid: 'u-1', mobile: '13800138000' }))
      .on(identityApi.dingdingBindUser, () => ({ keyId: 'key-d' }));
    const { router, user } = renderPage(links.login(paths.center), { api, signedIn: false });
    // Whether it binds and for which client are state attributes (the e2e pages read them too).
    const page = await screen.findByRole('main', {}, { timeout: 10_000 });
    await vi.waitFor(() => expect(page.dataset.binding).toBe('true'));
    expect(page.dataset.client).toBe('dingtalk');
    await vi.waitFor(() => expect(toasts).toContain(identityMessages.dingTalkNotBound));
    expect(screen.getByRole('link', { name: '申请账号' }).getAttribute('href')).toBe(
      paths.userApply,
    );
    expect(dd.runtime.permission.requestAuthCode).toHaveBeenCalledWith({ corpId: 'corp-1' });
    // With the state its config came with (the server takes the code only from this browser).
    expect(api.calls(identityApi.dingdingUserInfo)).toEqual([
      { code: 'dd-code', state: 'dd-state' },
    ]);
    expect(api.calls(identityApi.dingdingConfig)).toEqual([{ url: LOADED }]);

    await user.type(screen.getByPlaceholderText('请输入用户名'), 'E1001');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await vi.waitFor(() => expect(where(router)).toBe(paths.center));
    expect(api.calls(identityApi.dingdingBindUser)).toMatchObject([
      { psnCode: 'E1001', dingDingUserId: 'u-1', mobile: '13800138000' },
    ]);
    expect(useSession.getState().signedInWith).toBe('dingtalk');
  });

  it('says on the page, not as an error toast, when DingTalk gives no code', async () => {
    inBrowser(DINGTALK_UA);
    const { dd } = stubJsapi('unused');
    dd.runtime.permission.requestAuthCode = vi.fn(() => Promise.reject(new Error('no code')));
    const api = serverApi('dingtalk').on(identityApi.dingdingConfig, () => ddConfig);
    renderPage(links.login(paths.center), { api, signedIn: false });
    await screen.findByRole('button', { name: '登录' }, { timeout: 10_000 });
    expect(screen.getByText(identityMessages.noCode)).toBeTruthy();
    expect(toasts).toEqual([]);
  });

  it('signs a bound DingTalk user in silently', async () => {
    inBrowser(DINGTALK_UA);
    stubJsapi('dd-code-2');
    const api = serverApi('dingtalk')
      .on(identityApi.dingdingConfig, () => ddConfig)
      .on(identityApi.dingdingUserInfo, () => ({ userid: 'u-2', mobile: '', keyId: 'key-s' }));
    const { router } = renderPage(links.login(paths.center), { api, signedIn: false });
    await vi.waitFor(() => expect(where(router)).toBe(paths.center), { timeout: 10_000 });
    expect(useSession.getState()).toMatchObject({ keyId: 'key-s', signedInWith: 'dingtalk' });
  });
});

describe('logging out from the personal centre', () => {
  it.each([
    ['wechat', identityMessages.logoutConfirm, identityApi.wechatSignOut],
    ['dingtalk', identityMessages.logoutConfirm, identityApi.dingdingSignOut],
    ['password', identityMessages.logoutConfirmPlain, identityApi.signOut],
  ] as const)('a %s session asks "%s" and signs out there', async (via, question, endpoint) => {
    const api = fakeApi()
      .on(identityApi.wechatSignOut, () => null)
      .on(identityApi.dingdingSignOut, () => null)
      .on(identityApi.signOut, () => null)
      .on(adminApi.access, () => ({ isAdmin: false }));
    const { router, user } = renderPage(paths.center, { api });
    useSession.setState({ signedInWith: via });
    // An earlier case's dialog may still be fading out with the same words.
    const before = dialogsNow();
    await user.click(await screen.findByText('退出登录', {}, { timeout: 10_000 }));
    answerDialog(await newDialog(before, question), '确定');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
    expect(api.calls(endpoint)).toHaveLength(1);
    expect(useSession.getState().keyId).toBeNull();
  });
});
