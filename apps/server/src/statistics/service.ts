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
import type { DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import type { MachinePlace } from '../core/device-registry.ts';
import type { DevicesService } from '../devices/service.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { addFigures, emptyFigures, prorated } from '../foundation/shared/metrics.ts';
import { dayOf, instantOf, wallClockOf } from '../foundation/shared/time.ts';
import type { StatisticsRepository } from './repository.ts';
import { splitRange, type RangeParts } from './time-range.ts';
import type { WholeDaySums } from './whole-day-sums.ts';

export interface StatisticsDeps {
  repo: StatisticsRepository;
  /**
   * Line visibility, the product lines and groups, and the visible machines in the lists' order
   * (the device registry), as the device list has them.
   */
  devices: Pick<DevicesService, 'eachVisible' | 'menu' | 'machines'>;
  /** Whole past days' sums kept between requests. */
  wholeDays: WholeDaySums;
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

type PlaceColumn = 'country' | 'province' | 'city';

/** Which machines an area holds, and by which field its next level is grouped. */
const AREA: Record<MapLevel, { within: PlaceColumn | null; by: PlaceColumn }> = {
  world: { within: null, by: 'country' },
  country: { within: 'country', by: 'province' },
  province: { within: 'province', by: 'city' },
  // No district level (docs/product.md section 4): a city is shown as itself.
  city: { within: 'city', by: 'city' },
};

const DAY_MS = 86_400_000;

/** The map's count of each live status. */
const STATUS_FIELD = {
  running: 'runningNum',
  standBy: 'standbyNum',
  error: 'errorNum',
  offLine: 'offLineNum',
} as const satisfies Record<DeviceStatus, keyof MapStatus>;

export const createStatisticsService = ({ repo, devices, wholeDays, timeZone }: StatisticsDeps) => {
  /** Whether a machine's place is inside the area (every place for the world). */
  const areaOf = ({ mapLevel, positionName }: MapArea) => {
    const { within } = AREA[mapLevel];
    return (place: MachinePlace) => within === null || place[within] === positionName;
  };

  /**
   * Each machine's figures over a range (docs/design.md section 5): its whole days' sums from
   * rollup_day (kept in `wholeDays`), plus its partial days' whole hours from rollup_hour and
   * partial hours' minutes from rollup_minute.
   */
  const figuresOf = async (sns: string[], range: RangeParts, now: number) => {
    const out = new Map(sns.map((sn) => [sn, emptyFigures()]));
    if (sns.length === 0) return out;
    const { days, hours, minutes } = range;
    const [daySums, hourSums, minuteSums] = await Promise.all([
      days &&
        wholeDays.read(
          sns,
          days,
          dayOf(now, timeZone),
          (missing) => repo.daySums(missing, days),
          now,
        ),
      hours.length > 0 ? repo.hourSums(sns, hours) : undefined,
      minutes.length > 0 ? repo.minuteSums(sns, minutes) : undefined,
    ]);
    for (const [sn, f] of out)
      for (const sums of [daySums, hourSums, minuteSums]) {
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
     * The area's visible machines by live status (docs/product.md section 3, map status), counted from the
     * device registry and the live state as the device list counts them (off line after
     * OFFLINE_AFTER_MS of silence): the same figures, from memory, whatever the machine count.
     */
    async mapStatus(user: SessionUser, area: MapArea, now = Date.now()): Promise<MapStatus> {
      const inArea = areaOf(area);
      const c: MapStatus = {
        totalNum: 0,
        runningNum: 0,
        standbyNum: 0,
        errorNum: 0,
        offLineNum: 0,
      };
      await devices.eachVisible(
        user,
        (d, status) => {
          if (!inArea(d.place)) return;
          c.totalNum += 1;
          c[STATUS_FIELD[status]] += 1;
        },
        now,
      );
      return c;
    },

    /**
     * The area's next-level regions (named ones only) with their machine counts and the mean
     * position of their placed machines (null when none is placed).
     */
    async mapPoints(user: SessionUser, area: MapArea): Promise<MapPoint[]> {
      const inArea = areaOf(area);
      const by = AREA[area.mapLevel].by;
      const regions = new Map<
        string,
        { value: number; placed: number; lng: number; lat: number }
      >();
      await devices.eachVisible(user, ({ place }) => {
        const name = place[by];
        if (!name || !inArea(place)) return;
        let r = regions.get(name);
        if (!r) regions.set(name, (r = { value: 0, placed: 0, lng: 0, lat: 0 }));
        r.value += 1;
        if (place.lng !== null && place.lat !== null) {
          r.placed += 1;
          r.lng += place.lng;
          r.lat += place.lat;
        }
      });
      return [...regions].map(([name, r]) => ({
        name,
        value: r.value,
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
