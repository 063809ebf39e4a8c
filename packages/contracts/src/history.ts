import { z } from 'zod';
import { pageNumberField, pageSizeField } from './paging.ts';
import { primitiveMessages } from './primitive-messages.ts';
import { calendarDate, isCalendarDate, text } from './primitives.ts';
import { PAGE_SIZE } from './rules/paging.ts';
import { dayRangeProblem, isWithinCalendar, rangeMessages } from './rules/range.ts';

/** The history and device-log messages (docs/product.md sections 5, 8). */
export const historyMessages = {
  noDevice: '请选择查阅的设备',
  badDate: primitiveMessages.badDate,
  rangeTooLong: rangeMessages.rangeTooLong,
  startAfterEnd: rangeMessages.startAfterEnd,
  future: rangeMessages.future,
  outOfCalendar: rangeMessages.outOfCalendar,
  noData: '该日期无生产数据',
  badPageType: '统计方式只能是 date 或 week',
  /** A query without a condition it needs (its dates): docs/product.md section 8. */
  needCondition: '请补充查询条件',
} as const;

// A missing field says what is missing, not zod's default.
const snCode = z
  .string({ error: historyMessages.noDevice })
  .trim()
  .min(1, historyMessages.noDevice)
  .max(64)
  .pipe(text());

// Left out: the query lacks a condition (请补充查询条件); there but not a date: badDate.
const date = z
  .string({
    error: (issue) =>
      issue.input == null ? historyMessages.needCondition : historyMessages.badDate,
  })
  .pipe(
    calendarDate(historyMessages.badDate).refine(
      (d) => !isCalendarDate(d) || isWithinCalendar(d),
      historyMessages.outOfCalendar,
    ),
  );

/** A date range's order and span (rules/range.ts), checked once both ends are real dates. */
const rangeChecked = <T extends z.ZodRawShape>(
  shape: T,
  from: keyof T & string,
  to: keyof T & string,
) =>
  z.object(shape).superRefine((value: Record<string, unknown>, ctx) => {
    const start = value[from];
    const end = value[to];
    if (typeof start !== 'string' || typeof end !== 'string') return;
    if (!isCalendarDate(start) || !isCalendarDate(end)) return;
    const problem = dayRangeProblem(start, end);
    // Wrong way round: the start is wrong; too long: the end.
    const path = problem === rangeMessages.startAfterEnd ? from : to;
    if (problem) ctx.addIssue({ code: 'custom', path: [path], message: problem });
  });

export const pageType = z.enum(['date', 'week'], { error: historyMessages.badPageType });
export type PageType = z.infer<typeof pageType>;

/**
 * Query of getHistoryDataBySnCodeAndDate and getHistoryDtDataBySnCodeAndDate: one day
 * (beginTime = endTime: hourly series) or a range of at most 31 days (daily series, or weekly with
 * pageType week).
 */
export const historyQuery = rangeChecked(
  {
    snCode,
    beginTime: date,
    endTime: date,
    pageType: pageType.default('date'),
  },
  'beginTime',
  'endTime',
);
export type HistoryQuery = z.input<typeof historyQuery>;

/** Query of the parameter and DT detail (the range view's table): one row per day. */
export const historyDetailQuery = rangeChecked(
  { snCode, startTime: date, endTime: date },
  'startTime',
  'endTime',
);
export type HistoryDetailQuery = z.input<typeof historyDetailQuery>;

/**
 * One point of the parameter charts. `date` is 'HH:00' (a day's hours), 'YYYY-MM-DD' (a day of a
 * range) or the first day of a week inside the range, 'YYYY-MM-DD' (its Monday, or the range's
 * first day when the week began before it). A ratio with no denominator is null: no data.
 */
export const threeParamPoint = z.object({
  date: z.string(),
  activation: z.number().nullable(),
  yield: z.number().nullable(),
  ppm: z.number().nullable(),
});
export type ThreeParamPoint = z.infer<typeof threeParamPoint>;
/** DT (fault time) of one period, in minutes. */
export const dtPoint = z.object({ date: z.string(), value: z.number() });
export type DtPoint = z.infer<typeof dtPoint>;

/**
 * A row of the range table (docs/product.md section 3, detail row). `yieId` is the yield (良率),
 * `excellentRate` the superiority rate (优率), `useRate` the utilisation (稼动率); `ppm` is the
 * average PPM, observed-minute parts per minute with running time or parts, the minutes `maxPPM`
 * is the best of (never above it); `averagePPM` is the same figure, under the name the spec lists.
 * Ratio targets compare as they are (docs/design.md section 5). `hasData`: the period was observed;
 * `partial`: it is today, still in progress.
 */
export const detailRow = z.object({
  dataDate: z.string(),
  hasData: z.boolean(),
  ppm: z.number().nullable(),
  maxPPM: z.number(),
  averagePPM: z.number().nullable(),
  excellentRate: z.number().nullable(),
  yieId: z.number().nullable(),
  useRate: z.number().nullable(),
  okNum: z.number(),
  produceNumber: z.number(),
  ngNumber: z.number(),
  ppmTarget: z.number(),
  excellentRateTarget: z.number(),
  yieIdTarget: z.number(),
  useRateTarget: z.number(),
  partial: z.boolean(),
});
export type DetailRow = z.infer<typeof detailRow>;
/** DT of one period: fault time in minutes. */
export const dtRow = z.object({ dataDate: z.string(), hasData: z.boolean(), dtTime: z.number() });
export type DtRow = z.infer<typeof dtRow>;

/**
 * One code of the alarm TOP5: how often it began in the range, how many minutes it lasted there,
 * its share of all alarm minutes (percent) and the manual's description ('' when none).
 */
export const topAlarm = z.object({
  code: z.string(),
  description: z.string(),
  times: z.number(),
  duration: z.number(),
  percentage: z.number(),
  artificialDes: z.string(),
});
export type TopAlarm = z.infer<typeof topAlarm>;

/**
 * The history response (docs/product.md section 3). `hasData`: some period of the range was observed;
 * otherwise the screen says 该日期无生产数据.
 */
export const historyReply = z.object({
  projectId: z.string(),
  snCode: z.string(),
  nickSnCode: z.string(),
  deviceName: z.string(),
  nickDeviceName: z.string(),
  pageType,
  hasData: z.boolean(),
  threeParam: z.array(threeParamPoint),
  dt: z.array(dtPoint),
  dtTop: z.array(topAlarm),
  threeParamList: z.array(detailRow),
  dtList: z.array(dtRow),
});
export type HistoryReply = z.infer<typeof historyReply>;
export const historyDtReply = historyReply.pick({
  snCode: true,
  pageType: true,
  hasData: true,
  dt: true,
  dtList: true,
});
export type HistoryDtReply = z.infer<typeof historyDtReply>;
export const historyDetailReply = z.object({
  detailData: z.array(detailRow),
  dtData: z.array(dtRow),
});
export type HistoryDetailReply = z.infer<typeof historyDetailReply>;

/** Query of the stop-alarm page: one day's alarms, 11 a page. */
export const stopAlarmQuery = z.object({
  snCode,
  date,
  pageNumber: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.stopAlarm),
});
export type StopAlarmQuery = z.input<typeof stopAlarmQuery>;

/** A stop alarm (docs/product.md section 3): state 1 still active (a current warning), 0 ended. */
export const stopAlarm = z.object({
  contentStr: z.string(),
  beginTime: z.string(),
  endTime: z.string().nullable(),
  state: z.union([z.literal(0), z.literal(1)]),
});
export type StopAlarm = z.infer<typeof stopAlarm>;
/** `currentWarning`: the machine's alarms active now, whatever the day shown. */
export const stopAlarmReply = z.object({
  currentWarning: z.array(stopAlarm),
  data: z.array(stopAlarm),
  page: z.object({
    pageNumber: z.number(),
    pageSize: z.number(),
    total: z.number(),
    totalPage: z.number(),
  }),
});
export type StopAlarmReply = z.infer<typeof stopAlarmReply>;

/** Query of the operation log: the days startTime..endTime. */
export const operationLogQuery = rangeChecked(
  {
    snCode,
    startTime: date,
    endTime: date,
    pageIndex: pageNumberField(),
    pageSize: pageSizeField(PAGE_SIZE.stopAlarm),
  },
  'startTime',
  'endTime',
);
export type OperationLogQuery = z.input<typeof operationLogQuery>;

/** An operation-log line (docs/product.md section 3): `information` is the set value. */
export const operationLog = z.object({
  logComment: z.string(),
  information: z.string(),
  recordTime: z.string(),
  userName: z.string(),
});
export type OperationLog = z.infer<typeof operationLog>;
export const operationLogReply = z.object({
  data: z.array(operationLog),
  total: z.number(),
  totalPage: z.number(),
});
export type OperationLogReply = z.infer<typeof operationLogReply>;
