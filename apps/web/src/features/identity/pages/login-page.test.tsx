import { adminApi } from '@linewatch/contracts/admin-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { screen } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { links, paths } from '../../../shared/paths.ts';
import { useSession } from '../../../shared/session-store.ts';
import { buildUserInfo, buildUserProfile } from '../../../testing/builders.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { FakeSocket } from '../../../testing/fake-socket.ts';
import { renderPage } from '../../../testing/render-page.tsx';

// The report the visitor was going to opens its socket once signed in.
beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => {
  FakeSocket.last = null;
});

// A sign-in renders the login page, then the page it returns to, both loaded lazily.
vi.setConfig({ testTimeout: 20_000 });

/** What the page's alerts say (the form's field errors are alerts too, empty until shown). */
const alertsSaid = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('login page', () => {
  it('takes a visitor without a session to sign in, then back where they were going', async () => {
    const api = fakeApi()
      .on(identityApi.session, () => failure('0405', '请重新登录', 401))
      .on(identityApi.wechatBindUser, () => ({ keyId: 'key-1' }))
      .on(identityApi.userInfo, () => buildUserInfo({ name: '张三' }))
      .on(identityApi.userProfile, () => buildUserProfile({ name: '张三' }));
    const report = links.currentDataReport('SN-1');
    const { router, user } = renderPage(report, { api, signedIn: false });

    await screen.findByRole('heading', { name: 'Linewatch 设备监控' }, { timeout: 20_000 });
    expect(router.state.location.pathname).toBe(paths.login);
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(report);

    await user.type(screen.getByPlaceholderText('请输入用户名'), 'E1001');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret');
    await user.click(screen.getByRole('button', { name: '登录' }));

    await vi.waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(report),
    );
    expect(api.calls(identityApi.wechatBindUser).map((body) => body?.psnCode)).toEqual(['E1001']);
    // The password never leaves the page as typed.
    expect(api.calls(identityApi.wechatBindUser)[0]?.passWord).not.toBe('secret');
    await vi.waitFor(() => expect(useSession.getState().user?.name).toBe('张三'));
  });

  it('leads someone without an account to the application, and to its progress', async () => {
    const api = fakeApi().on(identityApi.session, () => failure('0405', '请重新登录', 401));
    const { router, user } = renderPage(paths.login, { api, signedIn: false });
    await screen.findByRole('heading', { name: 'Linewatch 设备监控' }, { timeout: 20_000 });
    expect(screen.getByRole('navigation').textContent).toBe('没有账号？申请账号|查看申请进度');
    expect(screen.getByRole('link', { name: '查看申请进度' }).getAttribute('href')).toBe(
      paths.userAudit,
    );

    await user.click(screen.getByRole('link', { name: '申请账号' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.userApply));
    expect(
      await screen.findByRole('button', { name: '提交申请' }, { timeout: 20_000 }),
    ).toBeTruthy();
  });

  it('says 请重新登录 and goes to sign in when the user info cannot be loaded', async () => {
    const toasts: string[] = [];
    const toast = vi.spyOn(Toast, 'show').mockImplementation((props) => {
      if (typeof props === 'object' && typeof props.content === 'string')
        toasts.push(props.content);
      return { close: () => {} };
    });
    const api = fakeApi()
      .on(identityApi.userInfo, () => failure('0500', '服务器内部错误', 500))
      .on(identityApi.userProfile, () => buildUserProfile());
    // A keyId from an earlier page, but no user info loaded yet: the guard asks for it.
    useSession.getState().signIn('key-stale');
    const { router } = renderPage(paths.center, { api, signedIn: false });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.login));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(paths.center);
    await vi.waitFor(() => expect(toasts).toContain('请重新登录'));
    expect(useSession.getState().keyId).toBeNull();
    // Said on the page too, not only in a toast that is gone by the time it shows.
    await vi.waitFor(() => expect(alertsSaid()).toContain('请重新登录'), { timeout: 5000 });
    toast.mockRestore();
  });

  it('says 请重新登录 on the login page when the session ends while the app is in use (0405)', async () => {
    const api = fakeApi().on(adminApi.access, () => failure('0405', '请重新登录'));
    const { router } = renderPage(paths.center, { api });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.login), {
      timeout: 5000,
    });
    await vi.waitFor(() => expect(alertsSaid()).toContain('请重新登录'), { timeout: 5000 });
    expect(useSession.getState().keyId).toBeNull();
  });

  it('says nothing of the kind to someone who simply signs in', async () => {
    renderPage(paths.login, { signedIn: false });
    await screen.findByRole('heading', { name: 'Linewatch 设备监控' }, { timeout: 5000 });
    expect(alertsSaid()).not.toContain('请重新登录');
  });
});
