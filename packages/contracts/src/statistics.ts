import { z } from 'zod';
import { pageNumberField, pageSizeField } from './paging.ts';
import { text } from './primitives.ts';
import { PAGE_SIZE } from './rules/paging.ts';
import { mapLevels, statisticsMessages } from './statistics-rules.ts';

/** What the statistics filter by: a product line, and within it a product group. */
export const statisticsFilters = z.object({
  productLine: text().trim().max(64, statisticsMessages.badFilters).optional(),
  productGroup: text().trim().max(64, statisticsMessages.badFilters).optional(),
});
export type StatisticsFilters = z.infer<typeof statisticsFilters>;

/**
 * Query of GET /api/rpf/machine/statistics. `filters` is the JSON of StatisticsFilters (the spec's
 * one parameter); the time rules that need "now" are checked by `timeRangeProblem` (rules/range.ts) in the route.
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
  pageIndex: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.statistics),
});
export type StatisticsQuery = z.input<typeof statisticsQuery>;

/**
 * One statistics card (docs/product.md section 3, statistics row) over the chosen time range, from the
 * telemetry rollups (docs/design.md section 5). A ratio with no denominator is null ("—"). Count
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

/** Query of getProductGroupByProductLine. */
export const productGroupQuery = z.object({
  productLine: text(undefined, statisticsMessages.lineFirst)
    .trim()
    .min(1, statisticsMessages.lineFirst)
    .max(64, statisticsMessages.badFilters),
});
export type ProductGroupQuery = z.input<typeof productGroupQuery>;

/** An option of the product line and group pickers (docs/product.md section 3, dictionary items). */
export const option = z.object({ label: z.string(), value: z.string() });
export type Option = z.infer<typeof option>;

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

/** docs/product.md section 3, map status: the visible machines of the area, by live status. */
export const mapStatus = z.object({
  totalNum: z.number(),
  runningNum: z.number(),
  standbyNum: z.number(),
  errorNum: z.number(),
  offLineNum: z.number(),
});
export type MapStatus = z.infer<typeof mapStatus>;

/**
 * docs/product.md section 3, map point: one region of the next level down (a country, province or city; at
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
