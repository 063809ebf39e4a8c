import type { RegistryLine } from '../core/device-registry.ts';
import type { DeviceInfo } from '../core/machine.ts';

/** Which machines a list or a count shows (an empty text is no filter). */
export interface Selection {
  /** The user's lines; null: every line (an admin). */
  lineIds: number[] | null;
  lineName?: string | undefined;
  groupName?: string | undefined;
  /** Part of the SN, nickname or machine name, case-insensitive. */
  search?: string | undefined;
  /** Only the machines this keeps (the followed ones, those in one live status). */
  keep?: ((sn: string) => boolean) | undefined;
}

/**
 * The machines a selection matches, from the device registry: one array per line that has any,
 * in the lists' order (line sort, line, SN). A line unfiltered is the registry's own array.
 */
export const selectMachines = (
  lines: readonly RegistryLine[],
  s: Selection,
): readonly (readonly DeviceInfo[])[] => {
  const allowed = s.lineIds && new Set(s.lineIds);
  const needle = s.search ? s.search.toLowerCase() : undefined;
  const { groupName, keep } = s;
  const matches = (d: DeviceInfo) =>
    (!groupName || d.groupName === groupName) &&
    (needle === undefined ||
      d.sn.toLowerCase().includes(needle) ||
      d.nickSnCode.toLowerCase().includes(needle) ||
      d.deviceName.toLowerCase().includes(needle)) &&
    (!keep || keep(d.sn));
  const perMachine = Boolean(groupName) || needle !== undefined || keep !== undefined;
  const out: (readonly DeviceInfo[])[] = [];
  for (const line of lines) {
    if (allowed && !allowed.has(line.id)) continue;
    if (s.lineName && line.name !== s.lineName) continue;
    const machines = perMachine ? line.machines.filter(matches) : line.machines;
    if (machines.length > 0) out.push(machines);
  }
  return out;
};

export const countOf = (lines: readonly (readonly DeviceInfo[])[]) =>
  lines.reduce((sum, machines) => sum + machines.length, 0);

/**
 * `limit` machines from `offset` on, across the lines in order; `arrange` orders a line's
 * machines (asked only of the lines the page touches).
 */
export const pageOf = (
  lines: readonly (readonly DeviceInfo[])[],
  offset: number,
  limit: number,
  arrange: (machines: readonly DeviceInfo[]) => readonly DeviceInfo[] = (machines) => machines,
): DeviceInfo[] => {
  const page: DeviceInfo[] = [];
  let skip = offset;
  for (const machines of lines) {
    if (page.length >= limit) break;
    if (skip >= machines.length) {
      skip -= machines.length;
      continue;
    }
    page.push(...arrange(machines).slice(skip, skip + limit - page.length));
    skip = 0;
  }
  return page;
};
