import { OFFLINE_AFTER_MS } from '@linewatch/contracts/limits';
import { isCoveredMinute, observedProduced } from '@linewatch/contracts/rules/figures';
import { deviceStatusOf, type DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { dayOf, HOUR_MS, hourStartOf } from '../foundation/shared/time.ts';
import { addFigures, emptyFigures, type Figures } from '../foundation/shared/metrics.ts';
import {
  MAX_ATTRIBUTED_GAP_MS,
  minuteOf,
  MINUTE_MS,
  type MachineSnapshot,
  type ReadingEffects,
} from './reading-effects.ts';

/** Minutes this far back are kept whole in memory (current PPM, and today's peak as it grows). */
export const RECENT_MINUTES_MS = 5 * MINUTE_MS;

export interface LiveMachine {
  snapshot: MachineSnapshot | undefined;
  /**
   * Since when the machine has reported without a silence (the first reading, or the first after
   * a gap over the attribution limit): a minute before this was not observed whole.
   */
  observedSince: number | undefined;
  day: string;
  /** Today's figures; maxMinuteProduced is today's peak PPM, as rollup_day holds it. */
  today: Figures;
  /**
   * Observed parts per minute start (produced − gapProduced), for the last few minutes: current
   * PPM, and today's peak while the minute is in the window.
   */
  recentMinutes: Map<number, number>;
  /** Of the minutes in the recent window, those PPM covers (isCoveredMinute). */
  recentCovered: Set<number>;
  /**
   * Minutes of today this state counted as newly covered when it applied their readings, until
   * the flush that wrote them says so too (settle): a minute is counted once, here or there.
   */
  coveredUnsettled: Set<number>;
  /** Produced per factory hour (its start, hourStartOf), last 24 hours. */
  hourly: Map<number, number>;
}

/** A minute's observed count as stored after a flush (its total, not the flush's part). */
export interface StoredMinute {
  sn: string;
  minute: number;
  observed: number;
  /** PPM covers it (isCoveredMinute): as loaded for the recent window. */
  covered?: boolean;
  /** The flush that returned it was the first to cover it: one more covered minute stored. */
  firstCovered?: boolean;
}

export interface LiveSeed {
  snapshots: Map<string, MachineSnapshot>;
  today: Map<string, Figures>;
  hourly: { sn: string; hour: number; produced: number }[];
  /** From minuteOf(now) − RECENT_MINUTES_MS on. */
  recentMinutes: StoredMinute[];
}

/**
 * Each machine's live state, updated as readings are accepted (before they are persisted, so
 * sockets see them at once). Rebuilt at start from what the database holds.
 *
 * Its figures are the database's: sums add up the same way, and today's peak PPM, a maximum
 * over whole minutes, is exact for minutes still in memory and settled from the stored minute
 * totals each flush returns for a late reading whose minute has left memory (a replayed buffer).
 */
export class LiveState {
  readonly #machines = new Map<string, LiveMachine>();
  readonly #listeners = new Set<(sn: string) => void>();
  readonly #pastDayListeners = new Set<(sns: ReadonlySet<string>) => void>();
  #loads = 0;

  constructor(private readonly timeZone: string) {}

  /** Loads what the database holds (at start): nothing is told, what was derived before is stale. */
  load(seed: LiveSeed, now = Date.now()) {
    this.#load(seed, now);
    this.#loads++;
  }

  /** How many times load ran: changes when state changed without onChange's listeners hearing. */
  get loads(): number {
    return this.#loads;
  }

  #load(seed: LiveSeed, now: number) {
    const day = dayOf(now, this.timeZone);
    for (const [sn, snapshot] of seed.snapshots) {
      const m = this.#machine(sn, now);
      m.snapshot = snapshot;
      // The committed reading is where a run resumed after a restart continues from.
      m.observedSince = snapshot.ts;
    }
    for (const [sn, figures] of seed.today) {
      const m = this.#machine(sn, now);
      m.day = day;
      m.today = addFigures(emptyFigures(), figures);
    }
    for (const h of seed.hourly) this.#machine(h.sn, now).hourly.set(h.hour, h.produced);
    for (const r of seed.recentMinutes) {
      const m = this.#machine(r.sn, now);
      m.recentMinutes.set(r.minute, r.observed);
      if (r.covered) m.recentCovered.add(r.minute);
    }
  }

  /**
   * Replaces these machines' state with what the database holds (`seed`, read for them): a
   * gateway's stream another instance wrote while this one did not hear all of it.
   */
  replace(sns: readonly string[], seed: LiveSeed, now = Date.now()) {
    for (const sn of sns) this.#machines.delete(sn);
    this.#load(seed, now);
    for (const sn of sns) for (const listener of this.#listeners) listener(sn);
  }

  get(sn: string): LiveMachine | undefined {
    return this.#machines.get(sn);
  }

  snapshot(sn: string): MachineSnapshot | undefined {
    return this.#machines.get(sn)?.snapshot;
  }

  apply(sn: string, effects: ReadingEffects, now = Date.now()) {
    const m = this.#machine(sn, now);
    const previousTs = m.snapshot?.ts;
    if (previousTs === undefined || effects.snapshot.ts - previousTs > MAX_ATTRIBUTED_GAP_MS)
      m.observedSince = effects.snapshot.ts;
    m.snapshot = effects.snapshot;
    this.#rollOver(m, now);
    const windowStart = minuteOf(now) - RECENT_MINUTES_MS;
    for (const minute of m.recentMinutes.keys())
      if (minute < windowStart) m.recentMinutes.delete(minute);
    for (const minute of m.recentCovered) if (minute < windowStart) m.recentCovered.delete(minute);
    for (const [minute, figures] of effects.minutes) {
      const observed = observedProduced(figures);
      if (dayOf(minute, this.timeZone) === m.day) {
        addFigures(m.today, figures);
        // A minute in the window is whole in memory; an older one's stored total comes with
        // the flush (settle), until then its part here is a lower bound.
        const minuteTotal =
          minute >= windowStart ? (m.recentMinutes.get(minute) ?? 0) + observed : observed;
        if (minute >= windowStart) m.recentMinutes.set(minute, minuteTotal);
        m.today.maxMinuteProduced = Math.max(m.today.maxMinuteProduced, minuteTotal);
        // A minute in the window newly covered counts now (so the average and the peak move
        // together); an older one counts when its flush says it was the first to cover it.
        if (minute >= windowStart && isCoveredMinute(figures) && !m.recentCovered.has(minute)) {
          m.recentCovered.add(minute);
          m.coveredUnsettled.add(minute);
          m.today.coveredMinutes++;
        }
      } else if (minute >= windowStart) {
        m.recentMinutes.set(minute, (m.recentMinutes.get(minute) ?? 0) + observed);
      }
      const hour = hourStartOf(minute, this.timeZone);
      if (hour > now - 24 * HOUR_MS)
        m.hourly.set(hour, (m.hourly.get(hour) ?? 0) + figures.produced);
    }
    for (const hour of m.hourly.keys()) if (hour <= now - 25 * HOUR_MS) m.hourly.delete(hour);
    for (const listener of this.#listeners) listener(sn);
  }

  /**
   * Takes the stored totals of the minutes a flush wrote: today's peak becomes what rollup_day
   * now holds, however late the readings were. `wrote`: this instance wrote them (it then tells
   * the past-day listeners; an instance that only learnt of another's write does not).
   */
  settle(stored: StoredMinute[], now = Date.now(), wrote = true) {
    const changed = new Set<string>();
    const pastDays = new Set<string>();
    const today = dayOf(now, this.timeZone);
    for (const s of stored) {
      const day = dayOf(s.minute, this.timeZone);
      if (day !== today && wrote) pastDays.add(s.sn);
      const m = this.#machines.get(s.sn);
      if (!m) continue;
      this.#rollOver(m, now);
      if (day !== m.day) continue;
      if (s.observed > m.today.maxMinuteProduced) {
        m.today.maxMinuteProduced = s.observed;
        changed.add(s.sn);
      }
      if (s.firstCovered && !m.coveredUnsettled.delete(s.minute)) {
        m.today.coveredMinutes++;
        changed.add(s.sn);
      }
    }
    for (const sn of changed) for (const listener of this.#listeners) listener(sn);
    if (pastDays.size > 0) for (const listener of this.#pastDayListeners) listener(pastDays);
  }

  /**
   * A machine's figures of today (what rollup_day holds for it, ahead by the unflushed readings):
   * empty when it has not reported today.
   */
  todayOf(sn: string, now = Date.now()): Readonly<Figures> {
    const m = this.#machines.get(sn);
    return m && m.day === dayOf(now, this.timeZone) ? m.today : emptyFigures();
  }

  /** running / standBy / error from the last status; offLine after 60 s of silence. */
  statusOf(sn: string, now = Date.now()): DeviceStatus {
    const snapshot = this.#machines.get(sn)?.snapshot;
    if (!snapshot || now - snapshot.ts > OFFLINE_AFTER_MS) return 'offLine';
    return deviceStatusOf(snapshot.status);
  }

  onChange(listener: (sn: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Called after a flush committed minutes of a day other than today for some machines (a late
   * replay, or the last minutes of yesterday written after midnight), once with all of them:
   * their whole days changed.
   */
  onPastDayWritten(listener: (sns: ReadonlySet<string>) => void): void {
    this.#pastDayListeners.add(listener);
  }

  #rollOver(m: LiveMachine, now: number) {
    const today = dayOf(now, this.timeZone);
    if (m.day !== today) {
      m.day = today;
      m.today = emptyFigures();
      m.coveredUnsettled.clear();
    }
  }

  #machine(sn: string, now: number): LiveMachine {
    let m = this.#machines.get(sn);
    if (!m) {
      m = {
        snapshot: undefined,
        observedSince: undefined,
        day: dayOf(now, this.timeZone),
        today: emptyFigures(),
        recentMinutes: new Map(),
        recentCovered: new Set(),
        coveredUnsettled: new Set(),
        hourly: new Map(),
      };
      this.#machines.set(sn, m);
    }
    return m;
  }
}
