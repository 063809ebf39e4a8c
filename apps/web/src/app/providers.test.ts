import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { useSession } from '../shared/session-store.ts';
import { createQueryClient, forgetOnSignOut } from './providers.tsx';

afterEach(() => onlineManager.setOnline(true));

describe('the query client offline', () => {
  it('runs a query and settles it with its error rather than pausing it', async () => {
    // Paused (TanStack Query's default offline), a page showed 加载中, or the previous day's
    // chart under a new date, until the network came back.
    onlineManager.setOnline(false);
    const client = createQueryClient();
    const failure = new Error('网络异常，请检查网络连接');
    await expect(
      client.fetchQuery({ queryKey: ['offline'], queryFn: () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
    expect(client.getQueryState(['offline'])).toMatchObject({
      status: 'error',
      fetchStatus: 'idle',
    });
  });
});

describe('the query client at sign-out', () => {
  it('forgets every user’s data when the session ends, not before', () => {
    const client = createQueryClient();
    const stop = forgetOnSignOut(client);
    useSession.getState().signIn('key-1');
    client.setQueryData(['devices', 'list', {}], ['LW-S1-001']);
    useSession.getState().signIn('key-1');
    expect(client.getQueryData(['devices', 'list', {}])).toEqual(['LW-S1-001']);
    useSession.getState().clear();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
    stop();
  });
});
