import { identityApi } from '@linewatch/contracts/identity-api';
import { screen } from '@testing-library/react';
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

describe('login page', () => {
  it('takes a visitor without a session to sign in, then back where they were going', async () => {
    const api = fakeApi()
      .on(identityApi.session, () => failure('0405', '请重新登录', 401))
      .on(identityApi.wechatBindUser, () => ({ keyId: 'key-1' }))
      .on(identityApi.userInfo, () => buildUserInfo({ name: '张三' }))
      .on(identityApi.userProfile, () => buildUserProfile({ name: '张三' }));
    const report = links.currentDataReport('SN-1');
    const { router, user } = renderPage(report, { api, signedIn: false });

    await screen.findByTestId('login-page', {}, { timeout: 20_000 });
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
});
