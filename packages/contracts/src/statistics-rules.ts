import { isCalendarDate } from './calendar.ts';
import type { StatisticsRow } from './statistics.ts';

/*
 * The map's and the statistics' messages and rules without zod (statistics.ts holds the schemas):
 * the screens import this file, so zod never lands on their first screen.
 */

/** The device map and the statistics page (spec sections 3, 5, 7, 9). */
export const statisticsMessages = {
  // spec section 5, statistics search
  timeRequired: '请选择时间',
  startAfterEnd: '开始时间不能大于结束时间',
  future: '最大时间不能超过当前时间',
  lineFirst: '请先选择产品线',
  // spec section 5, date range max
  rangeTooLong: '日期不可超过31天',
  badTime: '时间格式应为 YYYY-MM-DD HH:mm:ss 且为有效时间',
  badFilters: '筛选条件格式错误',
  unknownLine: '产品线不存在',
  unknownGroup: '产品组不存在',
  badPage: '页码必须是正整数',
  badPageSize: '每页条数应为 1 到 100 的整数',
  badMapLevel: '地图层级只能是 world、country、province 或 city',
  positionRequired: '请选择地区',
  lineFailed: '获取产品线失败',
  groupFailed: '获取产品组失败',
} as const;

/**
 * A range covers at most 31 days. The spec gives both "日期不可超过31天" and 2592000000 ms (30
 * days); the message is what the user reads, so 31 whole days (1st 00:00 to 31st 24:00) pass.
 */
const MAX_RANGE_DAYS = 31;
const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** 'YYYY-MM-DD HH:mm[:ss]', a real calendar time, in the factory's time zone. */
const isDateTime = (value: string): boolean => {
  const match = DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1]!);
};

/**
 * The local time as if it were UTC, in ms: only differences and comparisons of two such values
 * mean anything (both sides of the form and the route compare in the same zone).
 */
export const wallClockMs = (value: string): number => Date.parse(`${value.replace(' ', 'T')}Z`);

interface RangeInput {
  dataStartDate?: string | undefined;
  dataEndDate?: string | undefined;
}

/**
 * The statistics search's time rules (spec section 5), in the spec's order, as one function for
 * the form and the route: the first broken rule's message, or null. `now` is the wall-clock time
 * now in the same zone as the two times.
 */
export const rangeProblem = (range: RangeInput, now: string): string | null => {
  const { dataStartDate: start, dataEndDate: end } = range;
  if (!start || !end) return statisticsMessages.timeRequired;
  if (!isDateTime(start) || !isDateTime(end)) return statisticsMessages.badTime;
  const [from, to] = [wallClockMs(start), wallClockMs(end)];
  if (from > to) return statisticsMessages.startAfterEnd;
  // A minute of slack: the form's "now" was taken when the page opened.
  if (to > wallClockMs(now) + 60_000) return statisticsMessages.future;
  if (to - from > MAX_RANGE_MS) return statisticsMessages.rangeTooLong;
  return null;
};

/**
 * Spec section 4, card status colouring: produced at or above target, NG at or below, average
 * and max PPM at or above, yield and utilisation above. null: no data, neutral colour.
 */
export const rowMeetsTarget = {
  produced: (r: StatisticsRow): boolean | null => r.produceNumber >= r.produceTargetNumber,
  ng: (r: StatisticsRow): boolean | null => r.ngNumber <= r.ngTargetNumber,
  avgPPM: (r: StatisticsRow): boolean | null =>
    r.avgPPM === null ? null : r.avgPPM >= r.ppmTarget,
  maxPPM: (r: StatisticsRow): boolean | null => r.maxPPM >= r.ppmTarget,
  yield: (r: StatisticsRow): boolean | null => (r.yield === null ? null : r.yield > r.yieldTarget),
  useRate: (r: StatisticsRow): boolean | null =>
    r.useRate === null ? null : r.useRate > r.useRateTarget,
};

/** Map drill levels (spec section 4): world, then China, a province, a city; no district. */
export const mapLevels = ['world', 'country', 'province', 'city'] as const;
export type MapLevel = (typeof mapLevels)[number];
