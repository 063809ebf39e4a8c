import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from '../../shared/connectivity.ts';
import { OfflineBanner } from './offline-banner.tsx';

const NOW = new Date('2026-11-27T08:00:00+08:00').getTime();

/** A page showing one query's cached data (no fetch: it is what the cache holds). */
const Page = ({ name }: { name: string }) => {
  const { data } = useQuery({ queryKey: [name], queryFn: () => new Promise<never>(() => {}) });
  return <div>{String(data)}</div>;
};

const renderWith = (client: QueryClient, pages: string[]) =>
  render(
    <QueryClientProvider client={client}>
      <OfflineBanner />
      {pages.map((name) => (
        <Page key={name} name={name} />
      ))}
    </QueryClientProvider>,
  );

afterEach(() => {
  vi.useRealTimers();
  useConnectivity.setState({ browserOffline: false, unreachable: false });
});

describe('the offline banner', () => {
  it('is not there online', () => {
    renderWith(new QueryClient(), []);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says how old the oldest data on the screen is, and goes when the network is back', () => {
    vi.useFakeTimers({ now: NOW });
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(['list'], 'list', { updatedAt: NOW - 3 * 60_000 });
    client.setQueryData(['menu'], 'menu', { updatedAt: NOW - 60_000 });
    // Data no mounted page shows does not count.
    client.setQueryData(['elsewhere'], 'old', { updatedAt: NOW - 5 * 3_600_000 });
    renderWith(client, ['list', 'menu']);
    void act(() => window.dispatchEvent(new Event('offline')));
    expect(screen.getByRole('status').textContent).toBe('离线 · 数据更新于 3分钟前');
    void act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('status').textContent).toBe('离线 · 数据更新于 4分钟前');
    void act(() => window.dispatchEvent(new Event('online')));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the network error on a screen with no data, and when the server is unreachable', () => {
    renderWith(new QueryClient(), []);
    void act(() => useConnectivity.setState({ unreachable: true }));
    expect(screen.getByRole('status').textContent).toBe('离线 · 网络异常，请检查网络连接');
  });
});
