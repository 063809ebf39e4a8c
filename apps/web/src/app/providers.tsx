import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';

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
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });

export const Providers = ({ client, children }: { client: QueryClient; children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);
