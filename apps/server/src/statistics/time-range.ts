import { wallClockMs } from '@linewatch/contracts/statistics-rules';
import { hourStartOf } from '../shared/time.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterOf = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
};

// Intl formatting costs microseconds, and a statistics query formats a dozen instants: the
// labels are kept per zone and minute (every zone offset since 1972 is whole minutes), and the
// instants per zone and wall-clock text. Both start again past LIMIT entries.
const LIMIT = 20_000;
const minuteLabels = new Map<string, Map<number, string>>();
const instants = new Map<string, Map<string, number>>();

const zoneCache = <K, V>(caches: Map<string, Map<K, V>>, timeZone: string) => {
  let zone = caches.get(timeZone);
  if (!zone) {
    zone = new Map();
    caches.set(timeZone, zone);
  }
  if (zone.size >= LIMIT) zone.clear();
  return zone;
};

/** The wall-clock time of an instant in a time zone, as 'YYYY-MM-DD HH:mm:ss'. */
export const wallClockOf = (ts: number, timeZone: string): string => {
  const minute = Math.floor(ts / 60_000);
  const zone = zoneCache(minuteLabels, timeZone);
  let label = zone.get(minute);
  if (label === undefined) {
    const p: Record<string, string> = {};
    for (const part of formatterOf(timeZone).formatToParts(minute * 60_000))
      p[part.type] = part.value;
    label = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    zone.set(minute, label);
  }
  const second = Math.floor((ts - minute * 60_000) / 1000);
  return `${label}:${String(second).padStart(2, '0')}`;
};

/**
 * The instant a wall-clock time names in a time zone. The zone's offset is read at a first guess
 * and again at the corrected instant, which settles it across a daylight-saving change.
 */
export const instantOf = (wallClock: string, timeZone: string): number => {
  const zone = zoneCache(instants, timeZone);
  let instant = zone.get(wallClock);
  if (instant === undefined) {
    const guess = wallClockMs(wallClock);
    const offsetAt = (ts: number) => wallClockMs(wallClockOf(ts, timeZone)) - ts;
    const first = guess - offsetAt(guess);
    instant = guess - offsetAt(first);
    zone.set(wallClock, instant);
  }
  return instant;
};

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

const HOUR_MS = 3_600_000;

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
