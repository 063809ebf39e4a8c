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
): (typeof COUNTERS)[number][] | null => {
  const perMinute = limits.maxPpm ?? 3 * limits.ppmTarget;
  const nearZero = 3 * limits.ppmTarget;
  const minutes = Math.max(1, (reading.ts - previous.ts) / MINUTE_MS);
  // A loop rather than COUNTERS.filter: this runs for every reading, and is almost always empty.
  let implausible: (typeof COUNTERS)[number][] | null = null;
  for (const c of COUNTERS) {
    const now = reading.counters[c];
    const before = previous[c];
    if (
      now >= before
        ? perMinute > 0 && now - before > perMinute * minutes
        : nearZero > 0 && now > nearZero
    )
      (implausible ??= []).push(c);
  }
  return implausible;
};

type AlarmEdges = ReadingEffects['alarmsRaised'];
/** No alarm raised or cleared (most readings): one shared list, never changed. */
const NO_EDGES = Object.freeze([]) as unknown as AlarmEdges;

/**
 * The reading's active alarm codes, each once, in their order; the previous snapshot's list when
 * it is the same (snapshots are never changed), so a steady machine keeps one list.
 */
const activeCodesOf = (alarms: Reading['alarms'], previous: string[] | undefined): string[] => {
  const codes: string[] = [];
  for (const a of alarms) if (a.active && !codes.includes(a.code)) codes.push(a.code);
  if (previous === undefined || previous.length !== codes.length) return codes;
  for (let i = 0; i < codes.length; i++) if (codes[i] !== previous[i]) return codes;
  return previous;
};

/** The codes of `from` (each once, in its order) not in `against`, as alarm edges at `ts`. */
const edgesOf = (from: readonly string[], against: readonly string[], ts: number): AlarmEdges => {
  let edges: AlarmEdges | null = null;
  for (let i = 0; i < from.length; i++) {
    const code = from[i]!;
    if (!against.includes(code) && from.indexOf(code) === i) (edges ??= []).push({ code, ts });
  }
  return edges ?? NO_EDGES;
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
    if (implausible) {
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
  // Loops over the (few) codes rather than Sets and spreads: this runs for every reading.
  const before = previous?.activeAlarms ?? [];
  const active = activeCodesOf(reading.alarms, previous?.activeAlarms);
  const unchanged = active === before;

  return {
    snapshot: {
      ts: Math.max(reading.ts, previous?.ts ?? 0),
      status: reading.status,
      idleReason,
      produced: counters.produced,
      ok: counters.ok,
      ng: counters.ng,
      firstPassOk: counters.firstPassOk,
      activeAlarms: active,
    },
    minutes,
    statusChange: statusChanged ? { ts: reading.ts, status: reading.status, idleReason } : null,
    alarmsRaised: unchanged ? NO_EDGES : edgesOf(active, before, reading.ts),
    alarmsCleared: unchanged ? NO_EDGES : edgesOf(before, active, reading.ts),
    rebaseline,
  };
};
