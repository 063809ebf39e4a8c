import type { AdminLine } from '@linewatch/contracts/admin';
import type { LineWithGroups } from './repository.ts';

/** A line of the administration screen, its groups without their line id. */
export const presentLine = (l: LineWithGroups): AdminLine => ({
  id: l.id,
  name: l.name,
  sort: l.sort,
  machineCount: l.machines,
  groups: l.groups.map((g) => ({ id: g.id, name: g.name, machineCount: g.machines })),
});
