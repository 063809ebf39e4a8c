import {
  deviceMessages,
  type MachineListQuery,
  type MachineListReply,
  type StatusSummaryQuery,
} from '@linewatch/contracts/devices';
import { devicesApi } from '@linewatch/contracts/devices-api';
import { nextPageAfter, PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call, failingWith } from '../../shared/api-client.ts';
import { LIVE_REFRESH_MS, liveRefresh } from '../../shared/live-refresh.ts';
import { queryKeys } from '../../shared/query-keys.ts';

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
      failingWith(
        deviceMessages.listFailed,
        call(
          devicesApi.machineList,
          { ...filter, pageIndex: pageParam, pageSize: PAGE_SIZE.deviceList },
          { signal },
        ),
      ),
    getNextPageParam: (last, pages) =>
      nextPageAfter(
        pages.map((p) => p.data),
        last.total,
      ),
  });

/** 运行 / 待机 / 故障 / 离线 counts of what the user may see, narrowed like the list. */
export const useStatusSummary = (filter: StatusSummaryQuery) =>
  useQuery({
    queryKey: queryKeys.devices.summary(filter),
    refetchInterval: liveRefresh,
    queryFn: ({ signal }) => call(devicesApi.statusSummary, filter, { signal }),
  });
