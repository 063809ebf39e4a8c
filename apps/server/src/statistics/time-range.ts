import { HOUR_MS, hourStartOf, instantOf, wallClockOf } from '../foundation/shared/time.ts';

const DAY_MS = 86_400_000;
const shiftDay = (day: string, by: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + by * DAY_MS).toISOString().slice(0, 10);

/**
 * A query range cut into whole factory days (read from rollup_day), whole factory hours of the
 * partial days at either end (rollup_hour) and the minutes of the partial hours (rollup_minute).
 */
export interface RangeParts {
  /** Whole days inside the range, first and last ('YYYY-MM-DD'), or null. */
  days: { first: string; last: string } | null;
  /** Runs of whole hours, as [first hour's start, end) instants. */
  hours: [number, number][];
  /** The partial hours, as [from, to) instants. */
  minutes: [number, number][];
}

/** A window [from, to) as its whole factory hours and the minutes either side of them. */
const splitHours = (
  from: number,
  to: number,
  timeZone: string,
  into: Pick<RangeParts, 'hours' | 'minutes'>,
) => {
  const startOfFirst = hourStartOf(from, timeZone);
  const firstHour = startOfFirst === from ? from : startOfFirst + HOUR_MS;
  const endOfLast = hourStartOf(to, timeZone);
  if (firstHour >= endOfLast) {
    into.minutes.push([from, to]);
    return;
  }
  if (from < firstHour) into.minutes.push([from, firstHour]);
  into.hours.push([firstHour, endOfLast]);
  if (endOfLast < to) into.minutes.push([endOfLast, to]);
};

/**
 * Cuts [from, to) so that a 31-day query reads about 31 day rows per machine, the hours of its
 * two partial days and the minutes of at most two partial hours: never 44,640 minute rows, and
 * no more minutes than the retention of MINUTE_RETENTION_DAYS is sure to keep.
 */
export const splitRange = (from: number, to: number, timeZone: string): RangeParts => {
  const parts: RangeParts = { days: null, hours: [], minutes: [] };
  if (from >= to) return parts;
  const startOf = (day: string) => instantOf(`${day} 00:00:00`, timeZone);
  const fromDay = wallClockOf(from, timeZone).slice(0, 10);
  const first = startOf(fromDay) === from ? fromDay : shiftDay(fromDay, 1);
  const last = shiftDay(wallClockOf(to, timeZone).slice(0, 10), -1);
  if (first > last) {
    splitHours(from, to, timeZone, parts);
    return parts;
  }
  parts.days = { first, last };
  const daysFrom = startOf(first);
  const daysTo = startOf(shiftDay(last, 1));
  if (from < daysFrom) splitHours(from, daysFrom, timeZone, parts);
  if (daysTo < to) splitHours(daysTo, to, timeZone, parts);
  return parts;
};
