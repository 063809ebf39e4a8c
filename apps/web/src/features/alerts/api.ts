import type { DailyOrWeeklyQuery, SaveChannelsBody } from '@linewatch/contracts/alerts';
import { alertMessages } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { KEY_ID_HEADER, PAGE_SIZE, REQUEST_TIMEOUT_MS } from '@linewatch/contracts/limits';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { nextPageByTotalNum } from '../../shared/list-state.ts';
import { webMessages } from '../../shared/messages.ts';
import { queryKeys } from '../../shared/query-keys.ts';
import { useSession } from '../../shared/session-store.ts';
import { toastFailure, toastSuccess } from '../../shared/toast.ts';

export const useInbox = () =>
  useInfiniteQuery({
    queryKey: queryKeys.alerts.inbox,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      call(
        alertsApi.inbox,
        { pageNumber: pageParam, pageSize: PAGE_SIZE.subscription },
        { signal },
      ),
    getNextPageParam: nextPageByTotalNum,
  });

export const useMarkRead = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids?: number[]; all?: boolean }) => call(alertsApi.markRead, body),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.alerts.inbox }),
  });
};

export const useChannels = () =>
  useQuery({
    queryKey: queryKeys.alerts.channels,
    queryFn: ({ signal }) => call(alertsApi.channels, undefined, { signal }),
  });

export const useSaveChannels = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveChannelsBody) => call(alertsApi.saveChannels, body),
    onSuccess: (data) => {
      client.setQueryData(queryKeys.alerts.channels, data);
      toastSuccess(alertMessages.saved);
    },
  });
};

export const useReport = (query: DailyOrWeeklyQuery) =>
  useQuery({
    queryKey: queryKeys.alerts.report(query),
    enabled: query.snCode !== '',
    queryFn: ({ signal }) => call(alertsApi.report, query, { signal }),
  });

/**
 * Saves the report's workbook: a file, not an envelope, so fetched here with the session's keyId
 * (the API client reads JSON) and handed to the browser as a download.
 */
export const downloadReport = async (query: DailyOrWeeklyQuery) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, String(v));
  const keyId = useSession.getState().keyId;
  // Not AbortSignal.timeout: the older webviews the build targets (chrome87, safari14) lack it.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let workbook: Blob;
  try {
    const response = await fetch(`${alertsApi.reportXlsx.path}?${params.toString()}`, {
      headers: keyId ? { [KEY_ID_HEADER]: keyId } : {},
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (!response.ok) {
      toastFailure(webMessages.downloadFailed);
      return;
    }
    workbook = await response.blob();
  } catch {
    // A dropped connection or no answer in time: said as the API client says it.
    toastFailure(controller.signal.aborted ? webMessages.timeout : webMessages.networkError);
    return;
  } finally {
    clearTimeout(timer);
  }
  const url = URL.createObjectURL(workbook);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${query.snCode}-${query.alarmType === 'week' ? '周报' : '日报'}.xlsx`;
  a.click();
  URL.revokeObjectURL(url);
};
