import type { MachineListQuery, StatusSummaryQuery } from '@linewatch/contracts/devices';
import type {
  HistoryDetailQuery,
  HistoryQuery,
  OperationLogQuery,
  StopAlarmQuery,
} from '@linewatch/contracts/history';
import type { FacaPageQuery, TaskPageQuery } from '@linewatch/contracts/faca';
import type { MapQuery, StatisticsQuery } from '@linewatch/contracts/statistics';

/**
 * Every TanStack Query key, per domain. Features never import each other, so a feature that
 * changes another's data (subscribing a machine changes the device list and its menu) invalidates
 * by these keys: `queryClient.invalidateQueries({ queryKey: queryKeys.devices.all })`.
 * Keys are prefixes of one another, most general first.
 */
export const queryKeys = {
  devices: {
    /** Everything the device list shows: its menu, its groups' pages and the status counts. */
    all: ['devices'] as const,
    /** The process menu with its counts (getProcessAndCount). */
    menu: () => ['devices', 'menu'] as const,
    /** Every group's pages; one group's by its filter. */
    lists: () => ['devices', 'list'] as const,
    list: (filter: Partial<MachineListQuery>) => ['devices', 'list', filter] as const,
    summary: (filter: StatusSummaryQuery) => ['devices', 'summary', filter] as const,
  },
  telemetry: {
    /** One machine's last real-time payload (its socket's; kept to be shown offline). */
    realtime: (snCode: string) => ['telemetry', 'realtime', snCode] as const,
  },
  history: {
    /** One machine's history and log (figures, DT, table, stop alarms, operation log). */
    all: ['history'] as const,
    /** Every period's figures, of every machine. */
    allFigures: ['history', 'figures'] as const,
    figures: (query: HistoryQuery) => ['history', 'figures', query] as const,
    dt: (query: HistoryQuery) => ['history', 'dt', query] as const,
    detail: (query: HistoryDetailQuery) => ['history', 'detail', query] as const,
    stopAlarms: (query: StopAlarmQuery) => ['history', 'stopAlarms', query] as const,
    operationLog: (query: OperationLogQuery) => ['history', 'operationLog', query] as const,
  },
  faca: {
    /** Questions, their FA / CA and the tasks: saving any of them refreshes all. */
    all: ['faca'] as const,
    list: (filter: Partial<FacaPageQuery>) => ['faca', 'list', filter] as const,
    question: (id: number) => ['faca', 'question', id] as const,
    tasks: (filter: Partial<TaskPageQuery>) => ['faca', 'tasks', filter] as const,
    options: (kind: 'workmanship' | 'influence') => ['faca', 'options', kind] as const,
    handlers: (snCode: string) => ['faca', 'handlers', snCode] as const,
  },
  map: {
    all: ['map'] as const,
    status: (area: MapQuery) => ['map', 'status', area] as const,
    points: (area: MapQuery) => ['map', 'points', area] as const,
    /** A static GeoJSON file under /map/ (never changes while the app runs). */
    geo: (file: string) => ['map', 'geo', file] as const,
  },
  statistics: {
    all: ['statistics'] as const,
    lines: () => ['statistics', 'lines'] as const,
    groups: (productLine: string) => ['statistics', 'groups', productLine] as const,
    list: (query: Omit<StatisticsQuery, 'pageIndex'>) => ['statistics', 'list', query] as const,
  },
  gateways: {
    plcModels: () => ['gateways', 'plcModels'] as const,
    registry: () => ['gateways', 'registry'] as const,
  },
  subscriptions: {
    all: ['subscriptions'] as const,
    settings: (snCode: string) => ['subscriptions', 'settings', snCode] as const,
    list: (filter: object) => ['subscriptions', 'list', filter] as const,
    groups: () => ['subscriptions', 'groups'] as const,
    snCodes: (nameTag: string) => ['subscriptions', 'snCodes', nameTag] as const,
    userDict: (nameTag: string) => ['subscriptions', 'userDict', nameTag] as const,
  },
  alerts: {
    inbox: ['alerts', 'inbox'] as const,
    unread: ['alerts', 'inbox', 'unread'] as const,
    channels: ['alerts', 'channels'] as const,
    report: (query: object) => ['alerts', 'report', query] as const,
  },
  cases: {
    one: (casesId: string) => ['cases', casesId] as const,
  },
  applications: {
    progress: (token: string) => ['applications', 'progress', token] as const,
  },
  admin: {
    all: ['admin'] as const,
    access: () => ['admin', 'access'] as const,
    users: () => ['admin', 'users'] as const,
    applications: () => ['admin', 'applications'] as const,
    sms: () => ['admin', 'sms'] as const,
    lines: () => ['admin', 'lines'] as const,
    machines: (filter: { keyword: string; pageIndex: number }) =>
      ['admin', 'machines', filter] as const,
    audit: (pageIndex: number) => ['admin', 'audit', pageIndex] as const,
  },
} as const;
