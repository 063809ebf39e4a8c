import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import type { AddFollowBody, FollowListQuery } from '@linewatch/contracts/subscriptions';
import { subscriptionMessages } from '@linewatch/contracts/subscriptions';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { confirmAction } from '../../shared/confirm.ts';
import { nextPageByTotalNum } from '../../shared/list-state.ts';
import { queryKeys } from '../../shared/query-keys.ts';
import { toastFailure, toastSuccess } from '../../shared/toast.ts';

/** The settings of the first machine (a batch starts from its first machine's). */
export const useFollowSettings = (snCode: string) =>
  useQuery({
    queryKey: queryKeys.subscriptions.settings(snCode),
    enabled: snCode !== '',
    queryFn: ({ signal }) => call(subscriptionsApi.followSettings, { snCode }, { signal }),
  });

/** Subscribing changes the device list (isCollect, 我的关注) too. */
const useInvalidate = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.subscriptions.all }),
      client.invalidateQueries({ queryKey: queryKeys.devices.all }),
    ]);
};

/** The spec's failure text, with the server's reason (the client's own toast is replaced). */
const failed = (message: string) => (error: Error) => {
  toastFailure(`${message}：${error.message}`);
};

export const useAddFollow = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: AddFollowBody) => call(subscriptionsApi.addFollow, body),
    onSuccess: () => {
      toastSuccess(subscriptionMessages.saved);
      return invalidate();
    },
    onError: failed(subscriptionMessages.followFailed),
  });
};

export const useCancelFollow = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (snCodes: readonly string[]) =>
      call(subscriptionsApi.delFollows, { snCodes: snCodes.join(',') }),
    onSuccess: () => {
      toastSuccess(subscriptionMessages.cancelled);
      return invalidate();
    },
    // 删除有误，请重新进入页面操作 (nothing left to delete: the page was stale) reloads it too.
    onError: (error: Error) => {
      failed(subscriptionMessages.cancelFailed)(error);
      return invalidate();
    },
  });
};

/** The question before cancelling: one machine by its SN, a batch by its count. */
export const cancelQuestion = (snCodes: readonly string[]): string =>
  snCodes.length === 1
    ? `确定取消 ${snCodes[0]} 的订阅？`
    : `确定取消所选 ${snCodes.length} 台机台的订阅？`;

/**
 * Cancels the subscriptions once the user confirms (a cancel of the dialog says 取消操作,
 * docs/product.md section 8; a success says 已取消订阅): every way to cancel goes through here.
 */
export const useConfirmedCancel = () => {
  const cancel = useCancelFollow();
  const run = async (snCodes: readonly string[], onDone?: () => void) => {
    if (!(await confirmAction(cancelQuestion(snCodes)))) return;
    cancel.mutate(snCodes, { onSuccess: () => onDone?.() });
  };
  return { run, pending: cancel.isPending };
};

export type FollowFilter = Pick<FollowListQuery, 'produceGroup' | 'nameTag'>;

export const useFollowPages = (filter: FollowFilter) =>
  useInfiniteQuery({
    queryKey: queryKeys.subscriptions.list(filter),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        subscriptionsApi.list,
        { ...filter, pageNumber: pageParam, pageSize: PAGE_SIZE.subscription },
        { signal },
      ),
    getNextPageParam: nextPageByTotalNum,
  });

export const useProductGroups = () =>
  useQuery({
    queryKey: queryKeys.subscriptions.groups(),
    queryFn: ({ signal }) => call(subscriptionsApi.processSections, undefined, { signal }),
  });

/** The user dictionary: which of the machines matching nameTag this user follows. */
export const useUserDict = (nameTag: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.subscriptions.userDict(nameTag),
    enabled,
    queryFn: ({ signal }) => call(subscriptionsApi.userDict, { nameTag }, { signal }),
  });

/** The spec's selector pacing: 20 per chunk, each chunk after 500 ms. */
export const SELECTOR_CHUNK_DELAY_MS = 500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const useSnCodeChunks = (nameTag: string, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: queryKeys.subscriptions.snCodes(nameTag),
    enabled,
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }) => {
      if (pageParam > 1) await pause(SELECTOR_CHUNK_DELAY_MS);
      return call(
        subscriptionsApi.snCodes,
        { nameTag, pageIndex: pageParam, pageSize: PAGE_SIZE.subscription },
        { signal },
      );
    },
    getNextPageParam: nextPageByTotalNum,
  });
