import { alertsApi } from '@linewatch/contracts/alerts-api';
import { focusManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../shared/paths.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { renderPage } from '../testing/render-page.tsx';

const inboxOf = (unread: number) => ({
  data: Array.from({ length: unread }, (_, i) => ({
    id: i + 1,
    kind: 'alarm',
    title: `LW-S1-005 报警 ${i + 1}`,
    body: 'E518 温度过高',
    link: null,
    createdAt: '2026-11-23T02:00:00.000Z',
    read: false,
    alarm: null,
  })),
  totalNum: unread,
  unread,
});

// The badges are the only bare numbers in the tab bar and on 个人中心's page.
const tabBadge = () =>
  within(screen.getByRole('navigation', { name: '主导航' })).queryByText(/^\d+\+?$/)?.textContent ??
  null;
const rowBadge = () =>
  within(screen.getByRole('main')).queryByText(/^\d+\+?$/)?.textContent ?? null;

// Pages load lazily; on a busy machine a few navigations take more than the default 5 s.
vi.setConfig({ testTimeout: 20_000 });

describe('unread messages badge', () => {
  it('shows the unread count on the 个人中心 tab and its 消息 row, and follows new messages when the app comes back to the front', async () => {
    let unread = 4;
    const api = fakeApi().on(alertsApi.unread, () => ({ unread }));
    renderPage(paths.center, { api });
    await waitFor(() => expect(tabBadge()).toBe('4'), { timeout: 5000 });
    expect(rowBadge()).toBe('4');

    unread = 5;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(tabBadge()).toBe('5'), { timeout: 5000 });
    expect(rowBadge()).toBe('5');
    focusManager.setFocused(undefined);
  });

  it('shows no badge with nothing unread', async () => {
    const api = fakeApi();
    renderPage(paths.center, { api });
    await screen.findByText('消息', {}, { timeout: 5000 });
    await waitFor(() => expect(api.calls(alertsApi.unread).length).toBeGreaterThan(0));
    expect(tabBadge()).toBeNull();
    expect(rowBadge()).toBeNull();
  });

  it('clears once the messages are read on /messages', async () => {
    let unread = 2;
    const api = fakeApi()
      .on(alertsApi.unread, () => ({ unread }))
      .on(alertsApi.inbox, () => inboxOf(unread))
      .on(alertsApi.markRead, () => {
        unread = 0;
        return { unread };
      });
    const { user, router } = renderPage(paths.center, { api });
    await waitFor(() => expect(rowBadge()).toBe('2'), { timeout: 5000 });
    await user.click(screen.getByText('消息'));
    await user.click(await screen.findByRole('button', { name: '全部已读' }, { timeout: 5000 }));
    await screen.findByRole('heading', { name: '消息（0 未读）' });
    await act(() => router.navigate(-1));
    await screen.findByText('消息', {}, { timeout: 5000 });
    await waitFor(() => expect(rowBadge()).toBeNull());
    expect(tabBadge()).toBeNull();
  });
});
