import {
  menuLabels,
  type MachineCard,
  type MachineListReply,
  type MenuNode,
  type StatusSummary,
} from '@linewatch/contracts/devices';
import { iotStateOf } from '@linewatch/contracts/rules/gateway-states';
import type { DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import type { z } from 'zod';
import type { machineListQuery } from '@linewatch/contracts/devices';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import { forbidden } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import type { MachineCheck } from '../plugins/visibility.ts';
import { emptyFigures, targetSoFar } from '../foundation/shared/metrics.ts';
import { dayElapsedFraction, dayOf } from '../foundation/shared/time.ts';
import type { LiveState } from '../core/live-state.ts';
import type { DeviceRegistry, RegistryLine } from '../core/device-registry.ts';
import type { DeviceInfo } from '../core/machine.ts';
import { FollowMarks } from './follow-marks.ts';
import type { DevicesRepository } from './repository.ts';
import { countOf, pageOf, selectMachines, type Selection } from './selection.ts';

export interface DevicesDeps {
  repo: DevicesRepository;
  /** Each machine's status and today's figures now, from memory. */
  live: Pick<LiveState, 'statusOf' | 'todayOf'>;
  isGatewayOnline: (gatewayId: string) => boolean;
  /** The machines, their lines and groups, in the lists' order: pages and counts come from it. */
  registry: Pick<DeviceRegistry, 'get' | 'lines' | 'version'>;
  timeZone: string;
  /** Tests: how long follow marks are kept (FollowMarks' default when unset). */
  followMarksMaxAgeMs?: number | undefined;
}

type ListQuery = z.output<typeof machineListQuery>;

interface ListFilter {
  isFollow?: '0' | '1' | '' | undefined;
  produceLine?: string | undefined;
  produceGroup?: string | undefined;
  nameTag?: string | undefined;
}

/** The statistics' narrowing: a product line and group (an empty text is no filter). */
export interface MachineFilter {
  lineName?: string | undefined;
  groupName?: string | undefined;
}

/** A line's machines with those in fault now first, each part in SN order. */
const faultFirst = (
  machines: readonly DeviceInfo[],
  statusOf: (sn: string) => DeviceStatus,
): readonly DeviceInfo[] => {
  const inFault = machines.filter((d) => statusOf(d.sn) === 'error');
  return inFault.length === 0
    ? machines
    : [...inFault, ...machines.filter((d) => statusOf(d.sn) !== 'error')];
};

export const createDevicesService = ({
  repo,
  live,
  isGatewayOnline,
  registry,
  timeZone,
  followMarksMaxAgeMs,
}: DevicesDeps) => {
  const visibleLineIds = (user: SessionUser) => repo.visibleLineIds(user.userId, user.isAdmin);
  const followMarks = new FollowMarks(
    (userId) => repo.followed(userId),
    () => registry.version,
    followMarksMaxAgeMs,
  );

  /**
   * The list's machines, from the device registry: the user's lines, the menu's line and group,
   * the search, and with isFollow=1 only those the user follows (`followed`, read once).
   */
  const selectionOf = async (user: SessionUser, query: ListFilter) => {
    const followed = query.isFollow === '1' ? await followMarks.of(user.userId) : undefined;
    const selection: Selection = {
      lineIds: await visibleLineIds(user),
      lineName: query.produceLine,
      groupName: query.produceGroup,
      search: query.nameTag,
      keep: followed && ((sn) => followed.has(sn)),
    };
    return { selection, followed };
  };

  const canSee = async (user: SessionUser, lineId: number): Promise<boolean> => {
    const lines = await visibleLineIds(user);
    return lines === null || lines.includes(lineId);
  };

  return {
    visibleLineIds,

    canSee,

    /**
     * The one visibility decision for a machine-scoped route or socket (docs/design.md section 6): an
     * SN no machine has is `unknown`, a machine on a line the user was not granted `forbidden`.
     */
    async checkMachine(user: SessionUser, sn: string): Promise<MachineCheck> {
      const device = registry.get(sn);
      if (!device) return { ok: false, reason: 'unknown' };
      if (!(await canSee(user, device.lineId))) return { ok: false, reason: 'forbidden' };
      return { ok: true, device };
    },

    /**
     * `checkMachine` for a socket already open, as the user's rights are now (their lines and
     * admin flag read afresh): asked again when those, or the machine's line, changed.
     */
    async checkMachineAgain(userId: number, sn: string): Promise<MachineCheck> {
      const device = registry.get(sn);
      if (!device) return { ok: false, reason: 'unknown' };
      const lines = await repo.currentLineIds(userId);
      if (lines !== null && !lines.includes(device.lineId))
        return { ok: false, reason: 'forbidden' };
      return { ok: true, device };
    },

    /**
     * A page of the machines the user may see, narrowed to a product line and group, in the
     * lists' order (line, then SN), and how many there are: from the device registry.
     */
    async machines(user: SessionUser, filter: MachineFilter, offset: number, limit: number) {
      const lines = selectMachines(registry.lines(), {
        lineIds: await visibleLineIds(user),
        ...filter,
      });
      return { total: countOf(lines), page: pageOf(lines, offset, limit) };
    },

    /**
     * A page of the list, chosen in memory (the device registry, the live state and the user's
     * follow marks, kept): the database is asked only for a past day's figures.
     */
    async list(user: SessionUser, query: ListQuery, now = Date.now()): Promise<MachineListReply> {
      const { selection, followed } = await selectionOf(user, query);
      const status = query.deviceStatus;
      if (status) {
        const keepFollowed = selection.keep;
        selection.keep = (sn) =>
          live.statusOf(sn, now) === status && (!keepFollowed || keepFollowed(sn));
      }
      const lines = selectMachines(registry.lines(), selection);
      const total = countOf(lines);
      // An exact SN the user may not see: say so instead of "no result" (docs/product.md section 6).
      if (total === 0 && selection.search && selection.lineIds && registry.get(selection.search))
        throw forbidden();
      const page = pageOf(
        lines,
        (query.pageIndex - 1) * query.pageSize,
        query.pageSize,
        // Machines in fault first within their line: they need someone now.
        status ? undefined : (machines) => faultFirst(machines, (sn) => live.statusOf(sn, now)),
      );
      const sns = page.map((d) => d.sn);
      const day = query.dataDate || dayOf(now, timeZone);
      const isToday = day === dayOf(now, timeZone);
      const [marks, pastDay] = await Promise.all([
        followed ?? followMarks.of(user.userId),
        isToday ? undefined : repo.dayFigures(sns, day),
      ]);
      // Count targets of a day in progress are prorated to its elapsed part (docs/design.md section 5).
      const elapsed = dayElapsedFraction(day, now, timeZone);
      const data = page.map((d): MachineCard => {
        const figures = isToday ? live.todayOf(d.sn, now) : (pastDay?.get(d.sn) ?? emptyFigures());
        const derived = deriveFigures(figures);
        const produceDue = targetSoFar(d.produceTargetNumber, elapsed);
        return {
          snCode: d.sn,
          nickSnCode: d.nickSnCode,
          deviceName: d.deviceName,
          deviceStatus: live.statusOf(d.sn, now),
          iot: iotStateOf(d.gatewayId === null ? null : isGatewayOnline(d.gatewayId)),
          isCollect: marks.has(d.sn),
          produceLine: d.lineName,
          produceGroup: d.groupName ?? '',
          produceNumber: figures.produced,
          produceTargetNumber: d.produceTargetNumber,
          produceTargetDue: produceDue.amount,
          ngNumber: figures.ng,
          ngTargetNumber: d.ngTargetNumber,
          ngTargetDue: targetSoFar(d.ngTargetNumber, elapsed).amount,
          targetPartial: produceDue.partial,
          ppm: derived.ppm,
          maxPPM: derived.maxPPM,
          ppmTarget: d.ppmTarget,
          superiorityRate: derived.superiorityRate,
          superiorityRateTarget: d.superiorityRateTarget,
          yield: derived.yield,
          yieldTarget: d.yieldTarget,
          useRate: derived.useRate,
          useRateTarget: d.useRateTarget,
        };
      });
      return { data, total };
    },

    /**
     * The lines the user may see, from the device registry in the lists' order: the map counts
     * from their areas (`RegistryLine.areas`) and `statusOf`, so it always agrees with the list.
     */
    async visibleLines(user: SessionUser): Promise<readonly RegistryLine[]> {
      const lineIds = await visibleLineIds(user);
      if (lineIds === null) return registry.lines();
      const allowed = new Set(lineIds);
      return registry.lines().filter((line) => allowed.has(line.id));
    },

    /** A machine's live status now, as the list counts it. */
    statusOf: (sn: string, now = Date.now()): DeviceStatus => live.statusOf(sn, now),

    /** How many of the machines the user may see (narrowed like the list) are in each status. */
    async statusSummary(
      user: SessionUser,
      query: ListFilter,
      now = Date.now(),
    ): Promise<StatusSummary> {
      const { selection } = await selectionOf(user, query);
      const summary: StatusSummary = { running: 0, standBy: 0, error: 0, offLine: 0 };
      for (const machines of selectMachines(registry.lines(), selection))
        for (const d of machines) summary[live.statusOf(d.sn, now)] += 1;
      return summary;
    },

    /**
     * Users followed or unfollowed machines (null: anyone may have, notices were lost): the
     * list's marks are read again.
     */
    followsChanged: (userIds: readonly number[] | null) => {
      if (userIds === null) followMarks.forgetAll();
      else for (const userId of userIds) followMarks.forget(userId);
    },

    /** The left menu: all, subscribed, then each visible line with its product groups. */
    async menu(user: SessionUser, isFollow: boolean): Promise<MenuNode[]> {
      const lineIds = await visibleLineIds(user);
      const [lines, groups, followed] = await Promise.all([
        repo.visibleLines(lineIds),
        repo.countByGroup({ lineIds, followedBy: isFollow ? user.userId : undefined }),
        repo.countDevices({ lineIds, followedBy: user.userId }),
      ]);
      const lineNodes: MenuNode[] = lines.map((line) => {
        const children: MenuNode[] = groups.flatMap((g): MenuNode[] =>
          g.line_id === line.id && g.group_name !== null
            ? [
                {
                  text: g.group_name,
                  count: g.n,
                  kind: 'group',
                  produceLine: line.name,
                  produceGroup: g.group_name,
                },
              ]
            : [],
        );
        const count = groups.filter((g) => g.line_id === line.id).reduce((sum, g) => sum + g.n, 0);
        return { text: line.name, count, kind: 'line', produceLine: line.name, children };
      });
      const all = lineNodes.reduce((sum, n) => sum + n.count, 0);
      return [
        { text: menuLabels.all, count: all, kind: 'all' },
        { text: menuLabels.follow, count: followed, kind: 'follow' },
        ...lineNodes,
      ];
    },
  };
};

export type DevicesService = ReturnType<typeof createDevicesService>;
