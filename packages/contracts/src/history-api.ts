import type {
  HistoryDetailQuery,
  HistoryDetailReply,
  HistoryDtReply,
  HistoryQuery,
  HistoryReply,
  OperationLogQuery,
  OperationLogReply,
  StopAlarmQuery,
  StopAlarmReply,
} from './history.ts';
import { endpoint } from './endpoint.ts';

/** Device history and device log (docs/product.md sections 2, 3, 7; schemas in history.ts). */
export const historyApi = {
  history: endpoint<HistoryQuery, HistoryReply>(
    'GET',
    '/api/rpf/machine/history/getHistoryDataBySnCodeAndDate',
  ),
  historyDt: endpoint<HistoryQuery, HistoryDtReply>(
    'GET',
    '/api/rpf/machine/history/getHistoryDtDataBySnCodeAndDate',
  ),
  /** The range table's rows (the spec names no path: "parameter and DT detail"). */
  detail: endpoint<HistoryDetailQuery, HistoryDetailReply>(
    'GET',
    '/api/rpf/machine/history/getDetailDataBySnCodeAndDate',
  ),
  stopAlarms: endpoint<StopAlarmQuery, StopAlarmReply>(
    'GET',
    '/api/rpf/warning/pageHistoryAndRealTimeData',
  ),
  operationLog: endpoint<OperationLogQuery, OperationLogReply>(
    'GET',
    '/api/rpf/machine/action/log/getList',
  ),
} as const;
