import { isCalendarDate } from '../calendar.ts';

/*
 * The date-range rules (docs/product.md sections 5 and 9), zod-free: the statistics search and the history
 * range view check them as the user picks, the contracts' schemas and the routes check them
 * again, with these functions and these messages.
 */

export const rangeMessages = {
  timeRequired: '请选择时间',
  badTime: '时间格式应为 YYYY-MM-DD HH:mm:ss 且为有效时间',
  startAfterEnd: '开始时间不能大于结束时间',
  future: '最大时间不能超过当前时间',
  // docs/product.md section 5, date range max
  rangeTooLong: '日期不可超过31天',
  outOfCalendar: '日期应在 2014 年到 2050 年之间',
} as const;

/**
 * A range covers at most 31 days. The spec gives both "日期不可超过31天" and 2592000000 ms (30
 * days); the message is what the user reads, so 31 whole days (1st 00:00 to 31st 24:00) pass.
 */
export const MAX_RANGE_DAYS = 31;
/** docs/product.md section 9: the history range view opens on the last 7 days. */
export const DEFAULT_RANGE_DAYS = 7;
/** docs/product.md section 9: the calendar runs 2014–2050. */
export const CALENDAR_MIN_YEAR = 2014;
export const CALENDAR_MAX_YEAR = 2050;

const DAY_MS = 86_400_000;

/** The one 31-day rule: a span from `fromMs` to `toMs` (wall-clock ms) is too long. */
const spansTooLong = (fromMs: number, toMs: number): boolean =>
  toMs - fromMs > MAX_RANGE_DAYS * DAY_MS;

/**
 * The local time as if it were UTC, in ms: only differences and comparisons of two such values
 * mean anything (both sides of the form and the route compare in the same zone).
 */
export const wallClockMs = (value: string): number => Date.parse(`${value.replace(' ', 'T')}Z`);

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** 'YYYY-MM-DD HH:mm[:ss]', a real calendar time, in the factory's time zone. */
const isDateTime = (value: string): boolean => {
  const match = DATE_TIME.exec(value);
  return match !== null && isCalendarDate(match[1]!);
};

interface TimeRange {
  dataStartDate?: string | undefined;
  dataEndDate?: string | undefined;
}

/**
 * A time range's rules (the statistics search, docs/product.md section 5), in the spec's order, as one
 * function for the form and the route: the first broken rule's message, or null. `now` is the
 * wall-clock time now in the same zone as the two times.
 */
export const timeRangeProblem = (range: TimeRange, now: string): string | null => {
  const { dataStartDate: start, dataEndDate: end } = range;
  if (!start || !end) return rangeMessages.timeRequired;
  if (!isDateTime(start) || !isDateTime(end)) return rangeMessages.badTime;
  const [from, to] = [wallClockMs(start), wallClockMs(end)];
  if (from > to) return rangeMessages.startAfterEnd;
  // A minute of slack: the form's "now" was taken when the page opened.
  if (to > wallClockMs(now) + 60_000) return rangeMessages.future;
  if (spansTooLong(from, to)) return rangeMessages.rangeTooLong;
  return null;
};

/**
 * A range of whole days (the history views and the operation log, both ends YYYY-MM-DD calendar
 * dates, `to` included): its order and span, or null. Whether the end is in the future depends
 * on the factory's time zone: the route checks that (and the screen's calendar never offers it).
 */
export const dayRangeProblem = (from: string, to: string): string | null => {
  if (from > to) return rangeMessages.startAfterEnd;
  // From the first day's 00:00 to the last day's 24:00.
  const [start, end] = [wallClockMs(`${from} 00:00`), wallClockMs(`${to} 00:00`) + DAY_MS];
  if (spansTooLong(start, end)) return rangeMessages.rangeTooLong;
  return null;
};

/** A calendar date the calendar offers: from 2014 to 2050. */
export const isWithinCalendar = (date: string): boolean => {
  const year = Number(date.slice(0, 4));
  return year >= CALENDAR_MIN_YEAR && year <= CALENDAR_MAX_YEAR;
};
