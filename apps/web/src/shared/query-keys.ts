import type { MachineListQuery, StatusSummaryQuery } from '@linewatch/contracts/devices';

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
  subscriptions: {
    all: ['subscriptions'] as const,
    settings: (snCode: string) => ['subscriptions', 'settings', snCode] as const,
    list: (filter: object) => ['subscriptions', 'list', filter] as const,
    groups: () => ['subscriptions', 'groups'] as const,
    snCodes: (nameTag: string) => ['subscriptions', 'snCodes', nameTag] as const,
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
} as const;
