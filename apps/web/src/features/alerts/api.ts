import type { DailyOrWeeklyQuery, SaveChannelsBody } from '@linewatch/contracts/alerts';
import { alertMessages } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, fetchInTime } from '../../shared/api-client.ts';
import { nextPageByTotalNum } from '../../shared/list-state.ts';
import { webMessages } from '../../shared/messages.ts';
import { queryKeys } from '../../shared/query-keys.ts';
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

const SAVE_GRACE_MS = 40_000;

/** The file name a Content-Disposition gives: RFC 5987's filename* first, else filename. */
const attachmentName = (disposition: string | null): string | null => {
  if (!disposition) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // a malformed escape: fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? null;
};

/**
 * Saves the report's workbook: a file, not an envelope, so fetched here with the session's keyId
 * (the API client reads JSON) and handed to the browser as a download, named as the server names
 * it (machine, kind and day). The link is in the document while it is clicked: a detached one's
 * `download` name is not honoured everywhere (Chromium saved it as "download").
 */
export const downloadReport = async (query: DailyOrWeeklyQuery) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) params.set(k, String(v));
  let workbook: { blob: Blob; name: string | null } | null;
  try {
    workbook = await fetchInTime(`${alertsApi.reportXlsx.path}?${params.toString()}`, {}, (r) =>
      r.ok
        ? r
            .blob()
            .then((blob) => ({ blob, name: attachmentName(r.headers.get('content-disposition')) }))
        : Promise.resolve(null),
    );
  } catch {
    return; // said by fetchInTime: 网络异常 or 请求超时
  }
  if (!workbook) {
    toastFailure(webMessages.downloadFailed);
    return;
  }
  const url = URL.createObjectURL(workbook.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download =
    workbook.name ?? `${query.snCode}-${query.alarmType === 'week' ? '周报' : '日报'}.xlsx`;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // Safari starts the save after click() returns: the URL is freed once the save has surely
  // begun (FileSaver.js waits 40 s too).
  setTimeout(() => URL.revokeObjectURL(url), SAVE_GRACE_MS);
};
