import type { Reading } from '@linewatch/contracts/mqtt';

/** What the server remembers of a machine's last reading: the base for the next deltas. */
export interface MachineSnapshot {
  ts: number;
  status: 1 | 2 | 3;
  idleReason: 'upstream' | 'downstream' | null;
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  activeAlarms: string[];
}

export interface Figures {
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  runningMs: number;
  idleMs: number;
  faultMs: number;
  idleUpstreamMs: number;
  idleDownstreamMs: number;
}

export const emptyFigures = (): Figures => ({
  produced: 0,
  ok: 0,
  ng: 0,
  firstPassOk: 0,
  runningMs: 0,
  idleMs: 0,
  faultMs: 0,
  idleUpstreamMs: 0,
  idleDownstreamMs: 0,
});

export const addFigures = (into: Figures, from: Figures): Figures => {
  into.produced += from.produced;
  into.ok += from.ok;
  into.ng += from.ng;
  into.firstPassOk += from.firstPassOk;
  into.runningMs += from.runningMs;
  into.idleMs += from.idleMs;
  into.faultMs += from.faultMs;
  into.idleUpstreamMs += from.idleUpstreamMs;
  into.idleDownstreamMs += from.idleDownstreamMs;
  return into;
};

export interface ReadingEffects {
  snapshot: MachineSnapshot;
  /** Figures per minute start (epoch ms). */
  minutes: Map<number, Figures>;
  statusChange: { ts: number; status: 1 | 2 | 3; idleReason: string | null } | null;
  alarmsRaised: { code: string; ts: number }[];
  alarmsCleared: { code: string; ts: number }[];
}

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

const figuresAt = (minutes: Map<number, Figures>, minute: number) => {
  let figures = minutes.get(minute);
  if (!figures) {
    figures = emptyFigures();
    minutes.set(minute, figures);
  }
  return figures;
};

const addTime = (figures: Figures, snapshot: MachineSnapshot, ms: number) => {
  if (snapshot.status === 2) figures.runningMs += ms;
  else if (snapshot.status === 3) figures.faultMs += ms;
  else {
    figures.idleMs += ms;
    if (snapshot.idleReason === 'upstream') figures.idleUpstreamMs += ms;
    if (snapshot.idleReason === 'downstream') figures.idleDownstreamMs += ms;
  }
};

/**
 * Turns one reading into rollup figures against the previous snapshot: the time since the last
 * reading belongs to the status the machine was in, split at minute boundaries; counter deltas
 * belong to the minute of the reading. The first reading ever only sets the base.
 */
export const effectsOf = (
  previous: MachineSnapshot | undefined,
  reading: Reading,
): ReadingEffects => {
  const minutes = new Map<number, Figures>();
  const { counters } = reading;
  if (previous) {
    const at = figuresAt(minutes, minuteOf(reading.ts));
    at.produced += delta(counters.produced, previous.produced);
    at.ok += delta(counters.ok, previous.ok);
    at.ng += delta(counters.ng, previous.ng);
    at.firstPassOk += delta(counters.firstPassOk, previous.firstPassOk);
    const gap = reading.ts - previous.ts;
    if (gap > 0 && gap <= MAX_ATTRIBUTED_GAP_MS) {
      let from = previous.ts;
      while (from < reading.ts) {
        const to = Math.min(reading.ts, minuteOf(from) + MINUTE_MS);
        addTime(figuresAt(minutes, minuteOf(from)), previous, to - from);
        from = to;
      }
    }
  }

  const idleReason = reading.status === 1 ? (reading.idleReason ?? null) : null;
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
  };
};
