import type { DeviceStatus } from '@linewatch/contracts/devices';
import { OFFLINE_AFTER_MS } from '@linewatch/contracts/limits';
import { dayOf, HOUR_MS, hourOf } from '../shared/time.ts';
import type { Totals } from '../shared/metrics.ts';
import {
  addFigures,
  emptyFigures,
  minuteOf,
  MINUTE_MS,
  type Figures,
  type MachineSnapshot,
  type ReadingEffects,
} from './reading-effects.ts';

export interface LiveMachine {
  snapshot: MachineSnapshot | undefined;
  day: string;
  today: Figures;
  maxMinuteProduced: number;
  /** Produced per minute start, for the last few minutes (current PPM and today's peak). */
  recentMinutes: Map<number, number>;
  /** Produced per hour start, last 24 hours. */
  hourly: Map<number, number>;
}

export interface LiveSeed {
  snapshots: Map<string, MachineSnapshot>;
  today: Map<string, Totals>;
  hourly: { sn: string; hour: number; produced: number }[];
  recentMinutes: { sn: string; minute: number; produced: number }[];
}

const STATUS: Record<1 | 2 | 3, DeviceStatus> = { 1: 'standBy', 2: 'running', 3: 'error' };

/**
 * Each machine's live state, updated as readings are accepted (before they are persisted, so
 * sockets see them at once). Rebuilt at start from what the database holds.
 */
export class LiveState {
  readonly #machines = new Map<string, LiveMachine>();
  readonly #listeners = new Set<(sn: string) => void>();

  constructor(private readonly timeZone: string) {}

  load(seed: LiveSeed, now = Date.now()) {
    const day = dayOf(now, this.timeZone);
    for (const [sn, snapshot] of seed.snapshots) this.#machine(sn, now).snapshot = snapshot;
    for (const [sn, t] of seed.today) {
      const m = this.#machine(sn, now);
      m.day = day;
      m.today = { ...emptyFigures(), ...t, idleUpstreamMs: 0, idleDownstreamMs: 0 };
      m.maxMinuteProduced = t.maxMinuteProduced;
    }
    for (const h of seed.hourly) this.#machine(h.sn, now).hourly.set(h.hour, h.produced);
    for (const r of seed.recentMinutes)
      this.#machine(r.sn, now).recentMinutes.set(r.minute, r.produced);
  }

  get(sn: string): LiveMachine | undefined {
    return this.#machines.get(sn);
  }

  snapshot(sn: string): MachineSnapshot | undefined {
    return this.#machines.get(sn)?.snapshot;
  }

  apply(sn: string, effects: ReadingEffects, now = Date.now()) {
    const m = this.#machine(sn, now);
    m.snapshot = effects.snapshot;
    const today = dayOf(now, this.timeZone);
    if (m.day !== today) {
      m.day = today;
      m.today = emptyFigures();
      m.maxMinuteProduced = 0;
    }
    for (const [minute, figures] of effects.minutes) {
      if (dayOf(minute, this.timeZone) === m.day) {
        addFigures(m.today, figures);
        const minuteTotal = (m.recentMinutes.get(minute) ?? 0) + figures.produced;
        m.recentMinutes.set(minute, minuteTotal);
        m.maxMinuteProduced = Math.max(m.maxMinuteProduced, minuteTotal);
      }
      const hour = hourOf(minute);
      if (hour > now - 24 * HOUR_MS)
        m.hourly.set(hour, (m.hourly.get(hour) ?? 0) + figures.produced);
    }
    for (const minute of m.recentMinutes.keys())
      if (minute < minuteOf(now) - 5 * MINUTE_MS) m.recentMinutes.delete(minute);
    for (const hour of m.hourly.keys()) if (hour <= now - 25 * HOUR_MS) m.hourly.delete(hour);
    for (const listener of this.#listeners) listener(sn);
  }

  /** running / standBy / error from the last status; offLine after 60 s of silence. */
  statusOf(sn: string, now = Date.now()): DeviceStatus {
    const snapshot = this.#machines.get(sn)?.snapshot;
    if (!snapshot || now - snapshot.ts > OFFLINE_AFTER_MS) return 'offLine';
    return STATUS[snapshot.status];
  }

  onChange(listener: (sn: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #machine(sn: string, now: number): LiveMachine {
    let m = this.#machines.get(sn);
    if (!m) {
      m = {
        snapshot: undefined,
        day: dayOf(now, this.timeZone),
        today: emptyFigures(),
        maxMinuteProduced: 0,
        recentMinutes: new Map(),
        hourly: new Map(),
      };
      this.#machines.set(sn, m);
    }
    return m;
  }
}
