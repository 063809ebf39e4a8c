import type { Reading } from '@linewatch/contracts/mqtt';
import { MACHINE_STATE, type MachineState } from '@linewatch/contracts/rules/machine-states';
import { emptyFigures, type Figures } from '../foundation/shared/metrics.ts';

/** What the server remembers of a machine's last reading: the base for the next deltas. */
export interface MachineSnapshot {
  ts: number;
  status: MachineState;
  idleReason: 'upstream' | 'downstream' | null;
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  activeAlarms: string[];
}

export interface ReadingEffects {
  snapshot: MachineSnapshot;
  /** Figures per minute start (epoch ms). */
  minutes: Map<number, Figures>;
  statusChange: { ts: number; status: MachineState; idleReason: string | null } | null;
  alarmsRaised: { code: string; ts: number }[];
  alarmsCleared: { code: string; ts: number }[];
  /** The counters moved implausibly: this reading counted nothing and is the new base. */
  rebaseline: { counters: (keyof Reading['counters'])[]; from: Counters; to: Counters } | null;
}

type Counters = Reading['counters'];

/** What a machine could make: its target PPM, and its own ceiling when one is set. */
export interface CounterLimits {
  ppmTarget: number;
  maxPpm: number | null;
}

const COUNTERS = ['produced', 'ok', 'ng', 'firstPassOk'] as const;

export const MINUTE_MS = 60_000;
/**
 * Time between two readings further apart than this is not attributed to any status: the
 * machine or its gateway was not reporting (gateways send at least every 5 s).
 */
export const MAX_ATTRIBUTED_GAP_MS = 5 * MINUTE_MS;

export const minuteOf = (ts: number) => ts - (ts % MINUTE_MS);

/** A counter that went down means the PLC restarted and counts again from zero. */
const delta = (current: number, previous: number) =>
  current >= previous ? current - previous : current;

/**
 * The counters that moved more than the machine could have (docs/design.md section 5, plausible
 * counters): a rise above its parts per minute (its own maxPpm, else 3 × ppmTarget) times the
 * minutes elapsed (at least one minute's worth), or a drop to a value that is not near zero
 * (above 3 × ppmTarget). A machine with neither a target nor a ceiling has no limit to judge by:
 * its rises are believed and any drop is a PLC reboot, as before.
 */
const implausibleCounters = (
  previous: MachineSnapshot,
  reading: Reading,
  limits: CounterLimits,
): (typeof COUNTERS)[number][] => {
  const perMinute = limits.maxPpm ?? 3 * limits.ppmTarget;
  const nearZero = 3 * limits.ppmTarget;
  const minutes = Math.max(1, (reading.ts - previous.ts) / MINUTE_MS);
  return COUNTERS.filter((c) => {
    const now = reading.counters[c];
    const before = previous[c];
    if (now >= before) return perMinute > 0 && now - before > perMinute * minutes;
    return nearZero > 0 && now > nearZero;
  });
};

const figuresAt = (minutes: Map<number, Figures>, minute: number) => {
  let figures = minutes.get(minute);
  if (!figures) {
    figures = emptyFigures();
    minutes.set(minute, figures);
  }
  return figures;
};

const addTime = (figures: Figures, snapshot: MachineSnapshot, ms: number) => {
  if (snapshot.status === MACHINE_STATE.running) figures.runningMs += ms;
  else if (snapshot.status === MACHINE_STATE.fault) figures.faultMs += ms;
  else {
    figures.idleMs += ms;
    if (snapshot.idleReason === 'upstream') figures.idleUpstreamMs += ms;
    if (snapshot.idleReason === 'downstream') figures.idleDownstreamMs += ms;
  }
};

/**
 * Turns one reading into rollup figures against the previous snapshot: the time since the last
 * reading belongs to the status the machine was in, split at minute boundaries; counter deltas
 * belong to the minute of the reading. The first reading ever only sets the base, and so does a
 * reading whose counters moved implausibly (a re-baseline: it counts zero parts). Parts counted
 * across a silence longer than the gap limit are credited to the reading's minute as
 * `gapProduced` too: in the totals, in no observed minute (docs/design.md section 5, silences).
 */
export const effectsOf = (
  previous: MachineSnapshot | undefined,
  reading: Reading,
  limits: CounterLimits,
): ReadingEffects => {
  const minutes = new Map<number, Figures>();
  const { counters } = reading;
  let rebaseline: ReadingEffects['rebaseline'] = null;
  if (previous) {
    const gap = reading.ts - previous.ts;
    const implausible = implausibleCounters(previous, reading, limits);
    const at = figuresAt(minutes, minuteOf(reading.ts));
    if (implausible.length > 0) {
      rebaseline = {
        counters: implausible,
        from: {
          produced: previous.produced,
          ok: previous.ok,
          ng: previous.ng,
          firstPassOk: previous.firstPassOk,
        },
        to: { ...counters },
      };
    } else {
      at.produced += delta(counters.produced, previous.produced);
      at.ok += delta(counters.ok, previous.ok);
      at.ng += delta(counters.ng, previous.ng);
      at.firstPassOk += delta(counters.firstPassOk, previous.firstPassOk);
      if (gap > MAX_ATTRIBUTED_GAP_MS) at.gapProduced += at.produced;
    }
    if (gap > 0 && gap <= MAX_ATTRIBUTED_GAP_MS) {
      let from = previous.ts;
      while (from < reading.ts) {
        const to = Math.min(reading.ts, minuteOf(from) + MINUTE_MS);
        addTime(figuresAt(minutes, minuteOf(from)), previous, to - from);
        from = to;
      }
    }
  }

  const idleReason = reading.status === MACHINE_STATE.idle ? (reading.idleReason ?? null) : null;
  const statusChanged =
    !previous || previous.status !== reading.status || previous.idleReason !== idleReason;
  const active = reading.alarms.filter((a) => a.active).map((a) => a.code);
  const before = new Set(previous?.activeAlarms ?? []);
  const now = new Set(active);

  return {
    snapshot: {
      ts: Math.max(reading.ts, previous?.ts ?? 0),
      status: reading.status,
      idleReason,
      produced: counters.produced,
      ok: counters.ok,
      ng: counters.ng,
      firstPassOk: counters.firstPassOk,
      activeAlarms: [...now],
    },
    minutes,
    statusChange: statusChanged ? { ts: reading.ts, status: reading.status, idleReason } : null,
    alarmsRaised: [...now].filter((c) => !before.has(c)).map((code) => ({ code, ts: reading.ts })),
    alarmsCleared: [...before].filter((c) => !now.has(c)).map((code) => ({ code, ts: reading.ts })),
    rebaseline,
  };
};
