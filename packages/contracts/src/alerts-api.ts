import type {
  ChannelSettings,
  DailyOrWeeklyQuery,
  InboxQuery,
  InboxReply,
  MarkReadBody,
  ReportReply,
  SaveChannelsBody,
  UnreadReply,
} from './alerts.ts';
import { endpoint } from './endpoint.ts';

/** The in-app inbox, channel settings and the daily/weekly report (issue 9; schemas in alerts.ts). */
export const alertsApi = {
  inbox: endpoint<InboxQuery, InboxReply>('GET', '/api/alerts/messages'),
  unread: endpoint<void, UnreadReply>('GET', '/api/alerts/messages/unread'),
  markRead: endpoint<MarkReadBody, UnreadReply>('POST', '/api/alerts/messages/read'),
  channels: endpoint<void, ChannelSettings>('GET', '/api/alerts/channels'),
  saveChannels: endpoint<SaveChannelsBody, ChannelSettings>('POST', '/api/alerts/channels'),
  report: endpoint<DailyOrWeeklyQuery, ReportReply>('GET', '/api/wechat/getDailyOrWeekly'),
  /** The same report as an .xlsx file (not an envelope). */
  reportXlsx: endpoint<DailyOrWeeklyQuery, Blob>('GET', '/api/alerts/report.xlsx'),
} as const;
