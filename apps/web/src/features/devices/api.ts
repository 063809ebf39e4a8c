import type { MachineListQuery, MachineListReply, MenuNode } from '@linewatch/contracts/devices';
import { PAGE_SIZE } from '@linewatch/contracts/limits';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api-client.ts';

export const useProcessMenu = () =>
  useQuery({
    queryKey: ['devices', 'menu'],
    queryFn: ({ signal }): Promise<MenuNode[]> =>
      apiRequest('/api/rpf/userFollowSn/getProcessAndCount', { signal }),
  });

/** What one group of the device list asks for, besides the page. */
export type MachineFilter = Pick<
  MachineListQuery,
  'isFollow' | 'produceLine' | 'produceGroup' | 'nameTag'
>;

export const loadedCount = (pages: readonly MachineListReply[]): number =>
  pages.reduce((sum, page) => sum + page.data.length, 0);

export const useMachinePages = (filter: MachineFilter, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: ['devices', 'list', filter],
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }): Promise<MachineListReply> =>
      apiRequest('/api/wechat/machine/list/findMachineDataByCondition', {
        query: { ...filter, pageIndex: pageParam, pageSize: PAGE_SIZE.deviceList },
        signal,
      }),
    getNextPageParam: (last, pages) =>
      last.data.length > 0 && loadedCount(pages) < last.total ? pages.length + 1 : undefined,
  });
