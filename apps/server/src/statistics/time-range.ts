import { wallClockMs } from '@linewatch/contracts/statistics-rules';

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

/** A query range cut into whole factory days (read from rollup_day) and minute windows. */
export interface RangeParts {
  /** Whole days inside the range, first and last ('YYYY-MM-DD'), or null. */
  days: { first: string; last: string } | null;
  /** The partial days at either end, as [from, to) instants (read from rollup_minute). */
  minutes: [number, number][];
}

/**
 * Cuts [from, to) so that a 31-day query reads about 31 day rows per machine plus the minutes of
 * its two partial days, never 44,640 minute rows.
 */
export const splitRange = (from: number, to: number, timeZone: string): RangeParts => {
  const startOf = (day: string) => instantOf(`${day} 00:00:00`, timeZone);
  const fromDay = wallClockOf(from, timeZone).slice(0, 10);
  const first = startOf(fromDay) === from ? fromDay : shiftDay(fromDay, 1);
  const last = shiftDay(wallClockOf(to, timeZone).slice(0, 10), -1);
  if (first > last) return { days: null, minutes: from < to ? [[from, to]] : [] };
  const minutes: [number, number][] = [];
  const daysFrom = startOf(first);
  const daysTo = startOf(shiftDay(last, 1));
  if (from < daysFrom) minutes.push([from, daysFrom]);
  if (daysTo < to) minutes.push([daysTo, to]);
  return { days: { first, last }, minutes };
};
