import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WechatLoginPage } from '../features/identity/pages/wechat-login-page.tsx';
import html from '../../index.html?raw';
import { paths } from '../shared/paths.ts';

const renderLogin = () => {
  const router = createMemoryRouter([{ path: paths.login, element: <WechatLoginPage /> }], {
    initialEntries: [paths.login],
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
};

afterEach(() => vi.restoreAllMocks());

describe('readable on a shop floor', () => {
  it('lets the user pinch-zoom (no user-scalable=no, no maximum-scale)', () => {
    const viewport = /<meta\s+name="viewport"\s+content="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(viewport).toContain('width=device-width');
    expect(viewport).not.toMatch(/user-scalable\s*=\s*(no|0)/);
    expect(viewport).not.toMatch(/maximum-scale/);
  });

  it('is an account login in a plain browser, and binds WeChat only inside WeChat', () => {
    renderLogin();
    expect(screen.getByText('使用工号和密码登录')).toBeTruthy();
    expect(screen.queryByText(/绑定微信/)).toBeNull();
  });

  it('says the sign-in binds the WeChat account inside WeChat', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 MicroMessenger/8.0.50',
    );
    renderLogin();
    expect(screen.getByText('使用工号登录，绑定微信账号')).toBeTruthy();
  });
});
