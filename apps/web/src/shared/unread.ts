import { alertsApi } from '@linewatch/contracts/alerts-api';
import { useQuery } from '@tanstack/react-query';
import { call } from './api-client.ts';
import { liveRefresh } from './live-refresh.ts';
import { queryKeys } from './query-keys.ts';

/**
 * How many of the user's messages are unread, for the badges of the 个人中心 tab and its 消息
 * row: asked again every LIVE_REFRESH_MS and whenever the app comes back to the front, so a new
 * alarm message shows without a reload (docs/architecture.md says why a poll, not a push).
 * Reading messages on /messages invalidates the inbox, this query included (its key is under it).
 */
export const useUnreadCount = (): number =>
  useQuery({
    queryKey: queryKeys.alerts.unread,
    queryFn: ({ signal }) => call(alertsApi.unread, undefined, { signal }),
    refetchInterval: liveRefresh,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  }).data?.unread ?? 0;

/** A badge's text: the count, 99+ above 99, nothing at 0. */
export const badgeOf = (count: number): string | undefined =>
  count <= 0 ? undefined : count > 99 ? '99+' : String(count);
