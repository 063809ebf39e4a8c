import type {
  HistoryDetailQuery,
  HistoryReply,
  HistoryQuery,
  OperationLogQuery,
  StopAlarmQuery,
} from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';
import { queryKeys } from '../../shared/query-keys.ts';

/** Figures of past periods do not change under the user: no refetch on focus. */
const settled = { refetchOnWindowFocus: false, placeholderData: keepPreviousData } as const;

export const useHistory = (query: HistoryQuery | null) =>
  useQuery({
    queryKey: queryKeys.history.figures(query ?? { snCode: '', beginTime: '', endTime: '' }),
    enabled: query !== null,
    ...settled,
    queryFn: ({ signal }) => call(historyApi.history, query!, { signal }),
  });

/**
 * The machine's title: its name does not change with the period, so a period still loading or
 * one that failed (offline) is named by any period of this machine already loaded; the SN only
 * when none was.
 */
export const useMachineTitle = (snCode: string, shown: HistoryReply | undefined): string => {
  const client = useQueryClient();
  const named =
    shown ??
    client
      .getQueriesData<HistoryReply>({ queryKey: queryKeys.history.allFigures })
      .map(([, reply]) => reply)
      .find((reply) => reply?.snCode === snCode);
  return named
    ? `${named.nickDeviceName || named.deviceName}（${named.nickSnCode || named.snCode}）`
    : snCode;
};

export const useHistoryDt = (query: HistoryQuery | null) =>
  useQuery({
    queryKey: queryKeys.history.dt(query ?? { snCode: '', beginTime: '', endTime: '' }),
    enabled: query !== null,
    ...settled,
    queryFn: ({ signal }) => call(historyApi.historyDt, query!, { signal }),
  });

export const useHistoryDetail = (query: HistoryDetailQuery | null) =>
  useQuery({
    queryKey: queryKeys.history.detail(query ?? { snCode: '', startTime: '', endTime: '' }),
    enabled: query !== null,
    ...settled,
    queryFn: ({ signal }) => call(historyApi.detail, query!, { signal }),
  });

export const useStopAlarms = (query: StopAlarmQuery) =>
  useQuery({
    queryKey: queryKeys.history.stopAlarms(query),
    ...settled,
    queryFn: ({ signal }) => call(historyApi.stopAlarms, query, { signal }),
  });

export const useOperationLog = (query: OperationLogQuery) =>
  useQuery({
    queryKey: queryKeys.history.operationLog(query),
    ...settled,
    queryFn: ({ signal }) => call(historyApi.operationLog, query, { signal }),
  });
