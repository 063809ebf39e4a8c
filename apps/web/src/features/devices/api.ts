import {
  PATH_STATUS_SUMMARY,
  type MachineListQuery,
  type MachineListReply,
  type MenuNode,
  type StatusSummary,
  type StatusSummaryQuery,
} from '@linewatch/contracts/devices';
import { PAGE_SIZE } from '@linewatch/contracts/limits';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api-client.ts';

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
    queryKey: ['devices', 'menu'],
    refetchInterval: LIVE_REFRESH_MS,
    queryFn: ({ signal }): Promise<MenuNode[]> =>
      apiRequest('/api/rpf/userFollowSn/getProcessAndCount', { signal }),
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
    queryKey: ['devices', 'list', filter],
    enabled,
    refetchInterval: liveRefresh,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }): Promise<MachineListReply> =>
      apiRequest('/api/wechat/machine/list/findMachineDataByCondition', {
        query: { ...filter, pageIndex: pageParam, pageSize: PAGE_SIZE.deviceList },
        signal,
      }),
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && loadedCount(pages) < last.total ? pages.length + 1 : undefined,
  });

/** 运行 / 待机 / 故障 / 离线 counts of what the user may see, narrowed like the list. */
export const useStatusSummary = (filter: StatusSummaryQuery) =>
  useQuery({
    queryKey: ['devices', 'summary', filter],
    refetchInterval: liveRefresh,
    queryFn: ({ signal }): Promise<StatusSummary> =>
      apiRequest(PATH_STATUS_SUMMARY, { query: filter, signal }),
  });
