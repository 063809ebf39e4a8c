import { z } from 'zod';
import { PAGE_SIZE } from './limits.ts';
import { isCalendarDate, text } from './primitives.ts';

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
export const MAX_RANGE_DAYS = 31;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** 'YYYY-MM-DD HH:mm[:ss]', a real calendar time, in the factory's time zone. */
export const isDateTime = (value: string): boolean => {
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

/** What the statistics filter by: a product line, and within it a product group. */
export const statisticsFilters = z.object({
  productLine: text().trim().max(64, statisticsMessages.badFilters).optional(),
  productGroup: text().trim().max(64, statisticsMessages.badFilters).optional(),
});
export type StatisticsFilters = z.infer<typeof statisticsFilters>;

const page = (message: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(max, message)
    .default(fallback);

/**
 * Query of GET /api/rpf/machine/statistics. `filters` is the JSON of StatisticsFilters (the spec's
 * one parameter); the time rules that need "now" are checked by `rangeProblem` in the route.
 */
export const statisticsQuery = z.object({
  filters: z
    .string()
    .optional()
    .transform((raw, ctx): StatisticsFilters => {
      if (!raw) return {};
      try {
        const parsed = statisticsFilters.safeParse(JSON.parse(raw));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: statisticsMessages.badFilters });
      return z.NEVER;
    })
    .refine((f) => !f.productGroup || f.productLine, statisticsMessages.lineFirst),
  dataStartDate: z.string().optional(),
  dataEndDate: z.string().optional(),
  pageIndex: page(statisticsMessages.badPage, Number.MAX_SAFE_INTEGER, 1),
  pageSize: page(statisticsMessages.badPageSize, 100, PAGE_SIZE.statistics),
});
export type StatisticsQuery = z.input<typeof statisticsQuery>;

/**
 * One statistics card (spec section 3, statistics row) over the chosen time range, from the
 * telemetry rollups (DESIGN.md section 5). A ratio with no denominator is null ("—"). Count
 * targets are the machine's day targets prorated to the range's length. Times are seconds.
 */
export const statisticsRow = z.object({
  machineCode: z.string(),
  nickSnCode: z.string(),
  deviceName: z.string(),
  productLine: z.string(),
  productGroup: z.string(),
  produceNumber: z.number(),
  produceTargetNumber: z.number(),
  ngNumber: z.number(),
  ngTargetNumber: z.number(),
  yield: z.number().nullable(),
  yieldTarget: z.number(),
  avgPPM: z.number().nullable(),
  maxPPM: z.number(),
  ppmTarget: z.number(),
  useRate: z.number().nullable(),
  useRateTarget: z.number(),
  preProcessWaitingTime: z.number(),
  afterProcessWaitingTime: z.number(),
  runningTime: z.number(),
  errorTime: z.number(),
  waitingTime: z.number(),
});
export type StatisticsRow = z.infer<typeof statisticsRow>;

export const statisticsReply = z.object({ data: z.array(statisticsRow), total: z.number() });
export type StatisticsReply = z.infer<typeof statisticsReply>;

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

/** Query of getProductGroupByProductLine. */
export const productGroupQuery = z.object({
  productLine: text()
    .trim()
    .min(1, statisticsMessages.lineFirst)
    .max(64, statisticsMessages.badFilters),
});
export type ProductGroupQuery = z.input<typeof productGroupQuery>;

/** An option of the product line and group pickers (spec section 3, dictionary items). */
export const option = z.object({ label: z.string(), value: z.string() });
export type Option = z.infer<typeof option>;

/** Map drill levels (spec section 4): world, then China, a province, a city; no district. */
export const mapLevels = ['world', 'country', 'province', 'city'] as const;
export type MapLevel = (typeof mapLevels)[number];

/** Query of getMachineMapData and getMachineMapAllData: the area shown. */
export const mapQuery = z
  .object({
    mapLevel: z.enum(mapLevels, { error: statisticsMessages.badMapLevel }).default('world'),
    positionName: text().trim().max(64, statisticsMessages.positionRequired).default(''),
  })
  .refine((q) => q.mapLevel === 'world' || q.positionName !== '', {
    message: statisticsMessages.positionRequired,
    path: ['positionName'],
  });
export type MapQuery = z.input<typeof mapQuery>;

/** Spec section 3, map status: the visible machines of the area, by live status. */
export const mapStatus = z.object({
  totalNum: z.number(),
  runningNum: z.number(),
  standbyNum: z.number(),
  errorNum: z.number(),
  offLineNum: z.number(),
});
export type MapStatus = z.infer<typeof mapStatus>;

/**
 * Spec section 3, map point: one region of the next level down (a country, province or city; at
 * city level the city itself) with its machine count, and the mean position of those machines
 * (null when none has one), where the scatter point goes.
 */
export const mapPoint = z.object({
  name: z.string(),
  value: z.number(),
  coord: z.tuple([z.number(), z.number()]).nullable(),
});
export type MapPoint = z.infer<typeof mapPoint>;

export const mapPoints = z.object({ machineStatusList: z.array(mapPoint) });
export type MapPoints = z.infer<typeof mapPoints>;
