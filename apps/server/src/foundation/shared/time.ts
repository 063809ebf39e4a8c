import { wallClockMs } from '@linewatch/contracts/rules/range';

const formatters = new Map<string, Intl.DateTimeFormat>();

const partsFormatter = (timeZone: string) => {
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

// Intl formatting costs microseconds and runs for every reading and every socket push; the
// labels only change from one minute to the next (every zone offset is whole minutes). Keyed by
// zone, then by minute number, and the labels kept built: this runs several times per reading.
interface MinuteLabels {
  day: string;
  hour: string;
  /** 'YYYY-MM-DD HH:mm': the minute's wall clock. */
  minute: string;
  /** The instant (epoch ms) the factory hour holding the minute began. */
  hourStart: number;
}
const cache = new Map<string, Map<number, MinuteLabels>>();
const CACHE_LIMIT = 20_000;

const labels = (ts: number, timeZone: string): MinuteLabels => {
  let zone = cache.get(timeZone);
  if (!zone) {
    zone = new Map();
    cache.set(timeZone, zone);
  }
  const minute = Math.floor(ts / 60_000);
  let out = zone.get(minute);
  if (!out) {
    const p: Record<string, string> = {};
    for (const part of partsFormatter(timeZone).formatToParts(ts)) p[part.type] = part.value;
    out = {
      day: `${p.year}-${p.month}-${p.day}`,
      hour: `${p.hour}:00`,
      minute: `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`,
      hourStart: (minute - Number(p.minute)) * 60_000,
    };
    if (zone.size >= CACHE_LIMIT) zone.clear();
    zone.set(minute, out);
  }
  return out;
};

/** 'YYYY-MM-DD' of an instant in the factory's time zone. */
export const dayOf = (ts: number, timeZone: string): string => labels(ts, timeZone).day;

/** 'HH:00' of an instant in the factory's time zone. */
export const hourLabelOf = (ts: number, timeZone: string): string => labels(ts, timeZone).hour;

/**
 * The instant (epoch ms) the factory hour holding `ts` began: rollup_hour's key, and the live
 * state's. A zone whose offset is a half hour (India) starts its hours at :30 UTC.
 */
export const hourStartOf = (ts: number, timeZone: string): number => labels(ts, timeZone).hourStart;

export const HOUR_MS = 3_600_000;

/** The wall-clock time of an instant in a time zone, as 'YYYY-MM-DD HH:mm:ss'. */
export const wallClockOf = (ts: number, timeZone: string): string => {
  const second = Math.floor((ts - Math.floor(ts / 60_000) * 60_000) / 1000);
  return `${labels(ts, timeZone).minute}:${String(second).padStart(2, '0')}`;
};

// A statistics query turns a dozen wall-clock texts into instants: kept per zone and text, and
// started again past CACHE_LIMIT entries.
const instants = new Map<string, Map<string, number>>();

/**
 * The instant a wall-clock time names in a time zone. The zone's offset is read at a first guess
 * and again at the corrected instant, which settles it across a daylight-saving change.
 */
export const instantOf = (wallClock: string, timeZone: string): number => {
  let zone = instants.get(timeZone);
  if (!zone) {
    zone = new Map();
    instants.set(timeZone, zone);
  }
  let instant = zone.get(wallClock);
  if (instant === undefined) {
    const guess = wallClockMs(wallClock);
    const offsetAt = (ts: number) => wallClockMs(wallClockOf(ts, timeZone)) - ts;
    const first = guess - offsetAt(guess);
    instant = guess - offsetAt(first);
    if (zone.size >= CACHE_LIMIT) zone.clear();
    zone.set(wallClock, instant);
  }
  return instant;
};

/** The first minute (epoch ms) in [from, to] where `reached` holds (it holds from there on). */
const firstMinuteWhere = (from: number, to: number, reached: (ts: number) => boolean) => {
  let lo = Math.floor(from / 60_000);
  let hi = Math.ceil(to / 60_000);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (reached(mid * 60_000)) hi = mid;
    else lo = mid + 1;
  }
  return lo * 60_000;
};

/** When (epoch ms, to the minute) the factory day holding `now` began: 00:00 in the time zone. */
export const startOfDay = (now: number, timeZone: string): number => {
  const today = dayOf(now, timeZone);
  return firstMinuteWhere(now - 26 * HOUR_MS, now, (t) => dayOf(t, timeZone) >= today);
};

/** When a factory day begins and ends (to the minute). */
interface DayBounds {
  start: number;
  end: number;
}
/** Each zone's days' bounds, as found. */
const dayBounds = new Map<string, Map<string, DayBounds>>();

/** When the factory day holding `now` began and when it ends (00:00 of the next). */
const boundsOfDay = (now: number, timeZone: string) => {
  let zone = dayBounds.get(timeZone);
  if (!zone) dayBounds.set(timeZone, (zone = new Map<string, DayBounds>()));
  const today = dayOf(now, timeZone);
  let bounds = zone.get(today);
  if (!bounds) {
    bounds = {
      start: startOfDay(now, timeZone),
      end: firstMinuteWhere(now, now + 26 * HOUR_MS, (t) => dayOf(t, timeZone) > today),
    };
    if (zone.size >= 1_000) zone.clear();
    zone.set(today, bounds);
  }
  return bounds;
};

/**
 * How much of the factory day `day` (starting 00:00 in the time zone) has passed at `now`: 1 for
 * a past day, 0 for a future one, the elapsed fraction for today. Runs for every socket push and
 * list card: a day's bounds are found once.
 */
export const dayElapsedFraction = (day: string, now: number, timeZone: string): number => {
  const today = dayOf(now, timeZone);
  if (day < today) return 1;
  if (day > today) return 0;
  const { start, end } = boundsOfDay(now, timeZone);
  return Math.min(1, (now - start) / (end - start));
};

/** A factory hour: when it began, and its 'HH:00' label. */
export interface FactoryHour {
  start: number;
  label: string;
}

const lastHoursCache = new Map<string, { hourStart: number; hours: readonly FactoryHour[] }>();

/**
 * The 24 factory hours up to the one holding `now`, oldest first (the real-time chart's): built
 * once an hour for every socket push of that hour.
 */
export const last24Hours = (now: number, timeZone: string): readonly FactoryHour[] => {
  const hourStart = hourStartOf(now, timeZone);
  const kept = lastHoursCache.get(timeZone);
  if (kept?.hourStart === hourStart) return kept.hours;
  const hours = Array.from({ length: 24 }, (_, i): FactoryHour => {
    const start = hourStart - (23 - i) * HOUR_MS;
    return { start, label: hourLabelOf(start, timeZone) };
  });
  lastHoursCache.set(timeZone, { hourStart, hours });
  return hours;
};
