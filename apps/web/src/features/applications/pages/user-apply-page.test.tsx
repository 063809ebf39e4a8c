import { applicationMessages } from '@linewatch/contracts/applications';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

describe('account application', () => {
  it('refuses a bad phone without asking the server, then sends a code and counts down', async () => {
    const api = fakeApi().on(applicationsApi.sendCode, () => ({ retryAfterSeconds: 60 }));
    const { user } = renderPage(paths.userApply, { api, signedIn: false });
    const mobile = await screen.findByPlaceholderText('请输入手机号', {}, { timeout: 15_000 });
    await user.type(mobile, '123');
    await user.click(screen.getByRole('button', { name: '发送验证码' }));
    expect(await screen.findByText(applicationMessages.mobileInvalid)).toBeTruthy();
    expect(api.calls(applicationsApi.sendCode)).toHaveLength(0);

    await user.clear(mobile);
    await user.type(mobile, '13812345678');
    await user.click(screen.getByRole('button', { name: '发送验证码' }));
    await screen.findByRole('button', { name: '60秒后重发' });
    expect(api.calls(applicationsApi.sendCode)).toEqual([{ mobile: '13812345678' }]);
  }, 30_000);

  it('submits the application, keeps its token and shows the progress under review', async () => {
    const api = fakeApi()
      .on(applicationsApi.apply, () => ({ token: 'token-1' }))
      .on(applicationsApi.progress, () => ({
        name: '周八',
        psnCode: 'E1',
        mobile: '138****5678',
        status: 'pending' as const,
        reason: '',
        createdAt: '2026-11-22T08:00:00.000Z',
        decidedAt: null,
      }));
    const { user, router } = renderPage(paths.userApply, { api, signedIn: false });
    await user.type(
      await screen.findByPlaceholderText(applicationMessages.nameRequired, {}, { timeout: 15_000 }),
      '周八',
    );
    await user.type(screen.getByPlaceholderText(applicationMessages.psnCodeRequired), 'E1');
    await user.type(screen.getByPlaceholderText('请输入手机号'), '13812345678');
    await user.type(screen.getByPlaceholderText(applicationMessages.codeRequired), '123456');
    await user.click(screen.getByRole('button', { name: '提交申请' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.userAudit));
    expect(localStorage.getItem('lw-application-token')).toBe('token-1');
    // Under review: the second step waits on the administrator.
    expect(await screen.findByText('管理员审核中，请耐心等待')).toBeTruthy();
    expect(api.calls(applicationsApi.progress)).toEqual([{ token: 'token-1' }]);
  }, 30_000);
});
