import type {
  MachineListQuery,
  MachineListReply,
  StatusSummaryQuery,
} from '@linewatch/contracts/devices';
import { devicesApi } from '@linewatch/contracts/devices-api';
import { PAGE_SIZE } from '@linewatch/contracts/limits';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

/**
 * The list is a monitoring screen: what is on it is fetched again this often while it is open
 * (docs/architecture.md says why a refetch and not a push). A query that failed stops refreshing
 * until retried, so a refusal is not toasted again every few seconds.
 */
export const LIVE_REFRESH_MS = 10_000;
const liveRefresh = (query: { state: { status: string } }): number | false =>
  query.state.status === 'error' ? false : LIVE_REFRESH_MS;

export const useProcessMenu = () =>
  useQuery({
    queryKey: queryKeys.devices.menu(),
    refetchInterval: LIVE_REFRESH_MS,
    queryFn: ({ signal }) => call(devicesApi.processMenu, {}, { signal }),
  });

/** What one group of the device list asks for, besides the page. */
export type MachineFilter = Pick<
  MachineListQuery,
  'isFollow' | 'produceLine' | 'produceGroup' | 'nameTag' | 'deviceStatus'
>;

export const loadedCount = (pages: readonly MachineListReply[]): number =>
  pages.reduce((sum, page) => sum + page.data.length, 0);

export const useMachinePages = (filter: MachineFilter, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: queryKeys.devices.list(filter),
    enabled,
    refetchInterval: liveRefresh,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        devicesApi.machineList,
        { ...filter, pageIndex: pageParam, pageSize: PAGE_SIZE.deviceList },
        { signal },
      ),
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && loadedCount(pages) < last.total ? pages.length + 1 : undefined,
  });

/** 运行 / 待机 / 故障 / 离线 counts of what the user may see, narrowed like the list. */
export const useStatusSummary = (filter: StatusSummaryQuery) =>
  useQuery({
    queryKey: queryKeys.devices.summary(filter),
    refetchInterval: liveRefresh,
    queryFn: ({ signal }) => call(devicesApi.statusSummary, filter, { signal }),
  });
