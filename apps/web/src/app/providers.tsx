import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useSession } from '../shared/session-store.ts';
import { forgetLastKnown } from './last-known.ts';

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      // The api client already toasts every failure; retries would repeat the toast. Offline,
      // a request is still made and fails at once with the network error (api-client.ts), where
      // TanStack Query's default would pause it: 加载中 with no end, or the previous day's chart
      // under a new date (docs/architecture.md, "Offline"). Back online it refetches.
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 15_000,
        networkMode: 'always',
        // What a screen showed stays a day after it closed (TanStack's default is 5 min): the
        // last-known data it shows when reopened offline, with its age.
        gcTime: 24 * 60 * 60_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });

/**
 * Empties the cache, and forgets its copy kept for offline (last-known.ts), when the session ends
 * (a sign-out, or the server no longer knowing it) or gives way to another: what one user's
 * screens showed must not be shown, offline or for a moment, to the next one signing in on the
 * same phone. Returns the unsubscribe.
 */
export const forgetOnSignOut = (client: QueryClient): (() => void) =>
  useSession.subscribe((state, previous) => {
    if (previous.keyId && state.keyId !== previous.keyId) {
      client.clear();
      forgetLastKnown();
    }
  });

/**
 * Every nav bar's back arrow named 返回: antd-mobile's is a nameless button (an icon alone), so a
 * screen reader said nothing and tests had to find it by antd-mobile's internal class name.
 */
const navBar = { backIcon: <LeftOutline role="img" aria-label="返回" /> };

export const Providers = ({ client, children }: { client: QueryClient; children: ReactNode }) => (
  <ConfigProvider navBar={navBar}>
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  </ConfigProvider>
);
