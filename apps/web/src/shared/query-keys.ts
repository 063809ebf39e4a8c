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
