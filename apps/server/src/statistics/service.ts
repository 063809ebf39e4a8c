import { ReplyCode } from '@linewatch/contracts/envelope';
import {
  type MapPoint,
  type MapStatus,
  type Option,
  type StatisticsFilters,
  type StatisticsReply,
  type StatisticsRow,
} from '@linewatch/contracts/statistics';
import { timeRangeProblem } from '@linewatch/contracts/rules/range';
import { statisticsMessages, type MapLevel } from '@linewatch/contracts/statistics-rules';
import { DEVICE_STATUSES, type DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import type { AreaStatus } from '../core/area-status.ts';
import { lineAreaOf, type RegionSums } from '../core/map-areas.ts';
import type { DevicesService } from '../devices/service.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { addFigures, emptyFigures, prorated } from '../foundation/shared/metrics.ts';
import { dayOf, instantOf, wallClockOf } from '../foundation/shared/time.ts';
import type { StatisticsRepository } from './repository.ts';
import { splitRange, type RangeParts } from './time-range.ts';
import type { PastSums } from './past-sums.ts';

export interface StatisticsDeps {
  repo: StatisticsRepository;
  /**
   * Line visibility, the product lines and groups, and the visible machines in the lists' order
   * (the device registry), as the device list has them.
   */
  devices: Pick<DevicesService, 'visibleLines' | 'statusOf' | 'menu' | 'machines'>;
  /** Each map area's machines by live status, as statusOf has them, kept as statuses change. */
  areaStatus: Pick<AreaStatus, 'of'>;
  /** Whole past days' sums kept between requests. */
  pastSums: PastSums;
  timeZone: string;
}

interface MapArea {
  mapLevel: MapLevel;
  positionName: string;
}

interface StatisticsInput {
  filters: StatisticsFilters;
  dataStartDate?: string | undefined;
  dataEndDate?: string | undefined;
  pageIndex: number;
  pageSize: number;
}

const badInput = (message: string, path: string) =>
  new DomainError(ReplyCode.badInput, message, { errors: [{ path, message }] });

const DAY_MS = 86_400_000;

const isEmpty = (parts: RangeParts) =>
  parts.days === null && parts.hours.length === 0 && parts.minutes.length === 0;

/**
 * A range's parts that ended before today (past: they change only by a late write, which
 * pastSums hears of) and the rest, today's. A window reaching into today is today's whole.
 */
const byAge = (range: RangeParts, today: string, todayStarts: number) => {
  const past: RangeParts = { days: null, hours: [], minutes: [] };
  const recent: RangeParts = { days: null, hours: [], minutes: [] };
  if (range.days) (range.days.last < today ? past : recent).days = range.days;
  for (const w of range.hours) (w[1] <= todayStarts ? past : recent).hours.push(w);
  for (const w of range.minutes) (w[1] <= todayStarts ? past : recent).minutes.push(w);
  return { past, recent };
};

/** The map's count of each live status. */
const STATUS_FIELD = {
  running: 'runningNum',
  standBy: 'standbyNum',
  error: 'errorNum',
  offLine: 'offLineNum',
} as const satisfies Record<DeviceStatus, keyof MapStatus>;

export const createStatisticsService = ({
  repo,
  devices,
  areaStatus,
  pastSums,
  timeZone,
}: StatisticsDeps) => {
  /**
   * Each machine's figures over a range (docs/design.md section 5): the parts before today (its
   * whole days, and the hours and minutes of a partial first day) kept in `pastSums` between
   * requests, and today's hours and minutes read in one round trip (repository `sums`).
   */
  const figuresOf = async (sns: string[], range: RangeParts, now: number) => {
    const out = new Map(sns.map((sn) => [sn, emptyFigures()]));
    if (sns.length === 0) return out;
    const today = dayOf(now, timeZone);
    const { past, recent } = byAge(range, today, instantOf(`${today} 00:00:00`, timeZone));
    const [keptSums, recentSums] = await Promise.all([
      isEmpty(past)
        ? undefined
        : pastSums.read(
            sns,
            { key: JSON.stringify(past), past: true },
            (missing) => repo.sums(missing, past),
            now,
          ),
      isEmpty(recent) ? undefined : repo.sums(sns, recent),
    ]);
    for (const [sn, f] of out)
      for (const sums of [keptSums, recentSums]) {
        const part = sums?.get(sn);
        if (part) addFigures(f, part);
      }
    return out;
  };

  /** The lines the user may see, each with its product groups (the device list's menu). */
  const linesOf = async (user: SessionUser) =>
    (await devices.menu(user, false)).filter((node) => node.kind === 'line');

  return {
    /**
     * The area's visible machines by live status (docs/product.md section 3, map status): each
     * visible line's area (the device registry's areas) with its machines' live status as the
     * device list counts it (off line after OFFLINE_AFTER_MS of silence), kept per area as
     * statuses change (core/area-status.ts), or read machine by machine when it cannot say.
     */
    async mapStatus(
      user: SessionUser,
      { mapLevel, positionName }: MapArea,
      now = Date.now(),
    ): Promise<MapStatus> {
      const c: MapStatus = {
        totalNum: 0,
        runningNum: 0,
        standbyNum: 0,
        errorNum: 0,
        offLineNum: 0,
      };
      for (const line of await devices.visibleLines(user)) {
        const area = lineAreaOf(line.areas, mapLevel, positionName);
        if (!area) continue;
        c.totalNum += area.machines.length;
        const counts = areaStatus.of(area, now);
        if (counts) for (const s of DEVICE_STATUSES) c[STATUS_FIELD[s]] += counts[s];
        else for (const d of area.machines) c[STATUS_FIELD[devices.statusOf(d.sn, now)]] += 1;
      }
      return c;
    },

    /**
     * The area's next-level regions (named ones only) with their machine counts and the mean
     * position of their placed machines (null when none is placed): each visible line's region
     * sums, kept by the device registry, added up (docs/architecture.md decision 12).
     */
    async mapPoints(user: SessionUser, { mapLevel, positionName }: MapArea): Promise<MapPoint[]> {
      const regions = new Map<string, RegionSums>();
      for (const line of await devices.visibleLines(user)) {
        const area = lineAreaOf(line.areas, mapLevel, positionName);
        if (!area) continue;
        for (const [name, part] of area.regions) {
          const r = regions.get(name);
          if (r) {
            r.machines += part.machines;
            r.placed += part.placed;
            r.lng += part.lng;
            r.lat += part.lat;
          } else regions.set(name, { ...part });
        }
      }
      return [...regions].map(([name, r]) => ({
        name,
        value: r.machines,
        coord: r.placed > 0 ? [r.lng / r.placed, r.lat / r.placed] : null,
      }));
    },

    productLines: async (user: SessionUser): Promise<Option[]> =>
      (await linesOf(user)).map((l) => ({ label: l.text, value: l.text })),

    async productGroups(user: SessionUser, productLine: string): Promise<Option[]> {
      const line = (await linesOf(user)).find((l) => l.text === productLine);
      if (!line) throw badInput(statisticsMessages.unknownLine, 'productLine');
      return (line.children ?? []).map((g) => ({ label: g.text, value: g.text }));
    },

    /**
     * One page of statistics cards over a time range (docs/product.md section 3, statistics row), figures
     * from the rollups (docs/design.md section 5). A line the user may not see is as unknown as one
     * that does not exist: its name is not the user's to learn.
     */
    async statistics(
      user: SessionUser,
      input: StatisticsInput,
      now = Date.now(),
    ): Promise<StatisticsReply> {
      const problem = timeRangeProblem(input, wallClockOf(now, timeZone));
      if (problem) throw badInput(problem, 'dataStartDate');
      const { productLine, productGroup } = input.filters;
      if (productLine) {
        const line = (await linesOf(user)).find((l) => l.text === productLine);
        if (!line) throw badInput(statisticsMessages.unknownLine, 'filters.productLine');
        if (productGroup && !line.children?.some((g) => g.text === productGroup))
          throw badInput(statisticsMessages.unknownGroup, 'filters.productGroup');
      }
      const from = instantOf(input.dataStartDate!, timeZone);
      const to = instantOf(input.dataEndDate!, timeZone);
      const { total, page: machines } = await devices.machines(
        user,
        { lineName: productLine, groupName: productGroup },
        (input.pageIndex - 1) * input.pageSize,
        input.pageSize,
      );
      const figures = await figuresOf(
        machines.map((m) => m.sn),
        splitRange(from, to, timeZone),
        now,
      );
      // Day count targets, prorated to the range's length.
      const share = (to - from) / DAY_MS;
      const data = machines.map((m): StatisticsRow => {
        const f = figures.get(m.sn)!;
        const d = deriveFigures(f);
        return {
          machineCode: m.sn,
          nickSnCode: m.nickSnCode,
          deviceName: m.deviceName,
          productLine: m.lineName,
          productGroup: m.groupName ?? '',
          produceNumber: f.produced,
          produceTargetNumber: prorated(m.produceTargetNumber, share),
          ngNumber: f.ng,
          ngTargetNumber: prorated(m.ngTargetNumber, share),
          yield: d.yield,
          yieldTarget: m.yieldTarget,
          avgPPM: d.ppm,
          maxPPM: d.maxPPM,
          ppmTarget: m.ppmTarget,
          useRate: d.useRate,
          useRateTarget: m.useRateTarget,
          preProcessWaitingTime: Math.round(f.idleUpstreamMs / 1000),
          afterProcessWaitingTime: Math.round(f.idleDownstreamMs / 1000),
          runningTime: Math.round(f.runningMs / 1000),
          errorTime: Math.round(f.faultMs / 1000),
          waitingTime: Math.round(f.idleMs / 1000),
        };
      });
      return { data, total };
    },
  };
};

export type StatisticsService = ReturnType<typeof createStatisticsService>;
