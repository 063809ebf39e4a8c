import {
  menuLabels,
  type DeviceStatus,
  type MachineCard,
  type MachineListReply,
  type MenuNode,
  type StatusSummary,
} from '@linewatch/contracts/devices';
import type { z } from 'zod';
import type { machineListQuery } from '@linewatch/contracts/devices';
import { forbidden } from '../http/envelope.ts';
import type { SessionUser } from '../identity/service.ts';
import { derive, figuresFromRow, targetSoFar } from '../shared/metrics.ts';
import { dayElapsedFraction, dayOf } from '../shared/time.ts';
import type { LiveState } from '../telemetry/live-state.ts';
import type { DeviceInfo } from './device-registry.ts';
import type { DevicesRepository } from './repository.ts';

export interface DevicesDeps {
  repo: DevicesRepository;
  /** Each machine's status now, from memory. */
  live: Pick<LiveState, 'statusOf'>;
  isGatewayOnline: (gatewayId: string) => boolean;
  /** Every known machine (the device registry): live-status filters and ordering look at them. */
  allSns: () => Iterable<string>;
  /** A machine by SN (the device registry). */
  deviceOf: (sn: string) => DeviceInfo | undefined;
  timeZone: string;
}

/** What `checkMachine` found: the machine, or why the user may not have it. */
export type MachineCheck =
  { ok: true; device: DeviceInfo } | { ok: false; reason: 'unknown' | 'forbidden' };

type ListQuery = z.output<typeof machineListQuery>;

interface ListFilter {
  isFollow?: '0' | '1' | '' | undefined;
  produceLine?: string | undefined;
  produceGroup?: string | undefined;
  nameTag?: string | undefined;
}

export const createDevicesService = ({
  repo,
  live,
  isGatewayOnline,
  allSns,
  deviceOf,
  timeZone,
}: DevicesDeps) => {
  /** The machines in one live status now (from memory, not the database). */
  const snsIn = (status: DeviceStatus, now: number): string[] => {
    const sns: string[] = [];
    for (const sn of allSns()) if (live.statusOf(sn, now) === status) sns.push(sn);
    return sns;
  };

  const filterOf = async (user: SessionUser, query: ListFilter) => ({
    lineIds: await repo.visibleLineIds(user.userId, user.isAdmin),
    followedBy: query.isFollow === '1' ? user.userId : undefined,
    lineName: query.produceLine || undefined,
    groupName: query.produceGroup || undefined,
    search: query.nameTag || undefined,
  });

  const canSee = async (user: SessionUser, lineId: number): Promise<boolean> => {
    const lines = await repo.visibleLineIds(user.userId, user.isAdmin);
    return lines === null || lines.includes(lineId);
  };

  return {
    visibleLineIds: (user: SessionUser) => repo.visibleLineIds(user.userId, user.isAdmin),

    canSee,

    /**
     * The one visibility decision for a machine-scoped route or socket (DESIGN.md section 6): an
     * SN no machine has is `unknown`, a machine on a line the user was not granted `forbidden`.
     */
    async checkMachine(user: SessionUser, sn: string): Promise<MachineCheck> {
      const device = deviceOf(sn);
      if (!device) return { ok: false, reason: 'unknown' };
      if (!(await canSee(user, device.lineId))) return { ok: false, reason: 'forbidden' };
      return { ok: true, device };
    },

    async list(user: SessionUser, query: ListQuery, now = Date.now()): Promise<MachineListReply> {
      const filter = {
        ...(await filterOf(user, query)),
        snIn: query.deviceStatus ? snsIn(query.deviceStatus, now) : undefined,
      };
      const total = await repo.countDevices(filter);
      // An exact SN the user may not see: say so instead of "no result" (spec section 6).
      if (
        total === 0 &&
        filter.search &&
        filter.lineIds &&
        (await repo.deviceExists(filter.search))
      )
        throw forbidden();
      const day = query.dataDate || dayOf(now, timeZone);
      const rows = await repo.pageDevices(
        filter,
        day,
        user.userId,
        (query.pageIndex - 1) * query.pageSize,
        query.pageSize,
        // Machines in fault first within their line: they need someone now.
        query.deviceStatus ? [] : snsIn('error', now),
      );
      // Count targets of a day in progress are prorated to its elapsed part (DESIGN.md section 5).
      const elapsed = dayElapsedFraction(day, now, timeZone);
      const data = rows.map((r): MachineCard => {
        const figures = derive(figuresFromRow(r));
        const produceDue = targetSoFar(r.produce_target_number, elapsed);
        return {
          snCode: r.sn_code,
          nickSnCode: r.nick_sn_code,
          deviceName: r.device_name,
          deviceStatus: live.statusOf(r.sn_code, now),
          iot: r.gateway_id === null ? 0 : isGatewayOnline(r.gateway_id) ? 1 : 2,
          isCollect: r.is_collect,
          produceLine: r.line_name,
          produceGroup: r.group_name ?? '',
          produceNumber: r.produced,
          produceTargetNumber: r.produce_target_number,
          produceTargetDue: produceDue.amount,
          ngNumber: r.ng,
          ngTargetNumber: r.ng_target_number,
          ngTargetDue: targetSoFar(r.ng_target_number, elapsed).amount,
          targetPartial: produceDue.partial,
          ppm: figures.ppm,
          maxPPM: figures.maxPPM,
          ppmTarget: r.ppm_target,
          superiorityRate: figures.superiorityRate,
          superiorityRateTarget: r.superiority_rate_target,
          yield: figures.yield,
          yieldTarget: r.yield_target,
          useRate: figures.useRate,
          useRateTarget: r.use_rate_target,
        };
      });
      return { data, total };
    },

    /** How many of the machines the user may see (narrowed like the list) are in each status. */
    async statusSummary(
      user: SessionUser,
      query: ListFilter,
      now = Date.now(),
    ): Promise<StatusSummary> {
      const sns = await repo.deviceSns(await filterOf(user, query));
      const summary: StatusSummary = { running: 0, standBy: 0, error: 0, offLine: 0 };
      for (const sn of sns) summary[live.statusOf(sn, now)] += 1;
      return summary;
    },

    /** The left menu: all, subscribed, then each visible line with its product groups. */
    async menu(user: SessionUser, isFollow: boolean): Promise<MenuNode[]> {
      const lineIds = await repo.visibleLineIds(user.userId, user.isAdmin);
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
