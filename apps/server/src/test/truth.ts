import type { Reading } from '@linewatch/contracts/mqtt';

/*
 * What a scripted run of readings means, computed without the server, by the rules of docs/design.md
 * section 5 as docs/architecture.md states them (time to the previous status, split by minute; no
 * time across a silence over 5 minutes, whose parts are in the totals but in no minute; a drop to
 * near zero is a PLC reboot; a rise or drop beyond what the machine can make counts nothing and
 * re-bases). The data-truth tests check every figure the server stores or shows against it.
 */

export const MINUTE = 60_000;
const SILENCE = 5 * MINUTE;

/** One reading of the script, as a PLC would give it. */
export interface Step {
  ts: number;
  status: 1 | 2 | 3;
  idleReason?: 'upstream' | 'downstream';
  counters: Reading['counters'];
  alarms: string[];
}

export interface Fig {
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  gap: number;
  running: number;
  idle: number;
  /** Of idle: waiting for the process before (upstream) or after (downstream). */
  idleUpstream: number;
  idleDownstream: number;
  fault: number;
}

export const zero = (): Fig => ({
  produced: 0,
  ok: 0,
  ng: 0,
  firstPassOk: 0,
  gap: 0,
  running: 0,
  idle: 0,
  idleUpstream: 0,
  idleDownstream: 0,
  fault: 0,
});

const names = ['produced', 'ok', 'ng', 'firstPassOk'] as const;

/** Figures per minute start of a run of steps (the first one only sets where counting starts). */
export const minutesOf = (steps: readonly Step[], ppmTarget: number) => {
  const minutes = new Map<number, Fig>();
  const rebaselines: number[] = [];
  const figAt = (minute: number) => {
    let f = minutes.get(minute);
    if (!f) minutes.set(minute, (f = zero()));
    return f;
  };
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1]!;
    const cur = steps[i]!;
    const gap = cur.ts - prev.ts;
    const limit = 3 * ppmTarget;
    const implausible = names.some((n) => {
      const rise = cur.counters[n] - prev.counters[n];
      return rise >= 0 ? rise > limit * Math.max(1, gap / MINUTE) : cur.counters[n] > limit;
    });
    const here = figAt(cur.ts - (cur.ts % MINUTE));
    if (implausible) rebaselines.push(cur.ts);
    else {
      let parts = 0;
      for (const n of names) {
        const d =
          cur.counters[n] >= prev.counters[n]
            ? cur.counters[n] - prev.counters[n]
            : cur.counters[n];
        here[n] += d;
        if (n === 'produced') parts = d;
      }
      if (gap > SILENCE) here.gap += parts;
    }
    if (gap > SILENCE) continue;
    const key = prev.status === 2 ? 'running' : prev.status === 3 ? 'fault' : 'idle';
    const reason =
      prev.status !== 1
        ? null
        : prev.idleReason === 'upstream'
          ? 'idleUpstream'
          : prev.idleReason === 'downstream'
            ? 'idleDownstream'
            : null;
    for (let t = prev.ts; t < cur.ts;) {
      const next = Math.min(cur.ts, t - (t % MINUTE) + MINUTE);
      const f = figAt(t - (t % MINUTE));
      f[key] += next - t;
      if (reason) f[reason] += next - t;
      t = next;
    }
  }
  return { minutes, rebaselines };
};

/**
 * The minutes summed per key (a day, an hour…; null leaves a minute out), with the best minute
 * and how many minutes PPM covers: those with running time or observed parts.
 */
export const sumMinutes = (
  minutes: ReadonlyMap<number, Fig>,
  keyOf: (minute: number) => string | null,
) => {
  const out = new Map<string, Fig & { maxMinute: number; covered: number }>();
  for (const [minute, f] of minutes) {
    const key = keyOf(minute);
    if (key === null) continue;
    const acc = out.get(key) ?? { ...zero(), maxMinute: 0, covered: 0 };
    for (const k of Object.keys(f) as (keyof Fig)[]) acc[k] += f[k];
    acc.maxMinute = Math.max(acc.maxMinute, f.produced - f.gap);
    if (f.running > 0 || f.produced - f.gap > 0) acc.covered++;
    out.set(key, acc);
  }
  return out;
};

/** Average PPM as the script means it: observed parts per covered minute (null: none). */
export const averagePpmOf = (f: { produced: number; gap: number; covered: number }) =>
  f.covered > 0 ? (f.produced - f.gap) / f.covered : null;

/** Status changes the script makes: its first reading, and each one whose status or reason differs. */
export const statusChangesOf = (steps: readonly Step[]) =>
  steps.filter(
    (s, i) =>
      i === 0 ||
      s.status !== steps[i - 1]!.status ||
      (s.status === 1 && s.idleReason !== steps[i - 1]!.idleReason),
  );

/** Each alarm the script raises: its code, when it began, and when it ended (null: still active). */
export const alarmsOf = (steps: readonly Step[]) => {
  const out: { code: string; begin: number; end: number | null }[] = [];
  const open = new Map<string, (typeof out)[number]>();
  for (const s of steps) {
    for (const code of s.alarms)
      if (!open.has(code)) {
        const alarm = { code, begin: s.ts, end: null };
        open.set(code, alarm);
        out.push(alarm);
      }
    for (const [code, alarm] of open)
      if (!s.alarms.includes(code)) {
        alarm.end = s.ts;
        open.delete(code);
      }
  }
  return out;
};

/** The factory day of an instant in Asia/Shanghai (UTC+8 all year), the tests' time zone. */
export const shanghaiDay = (ts: number) => new Date(ts + 8 * 3_600_000).toISOString().slice(0, 10);
/** The start of an instant's factory hour in Asia/Shanghai: its UTC hour (a whole-hour offset). */
const shanghaiHour = (ts: number) => ts - (ts % 3_600_000);

const figureRow = (f: Fig) => ({
  produced: f.produced,
  ok: f.ok,
  ng: f.ng,
  first_pass_ok: f.firstPassOk,
  gap_produced: f.gap,
  running_ms: f.running,
  idle_ms: f.idle,
  fault_ms: f.fault,
  idle_upstream_ms: f.idleUpstream,
  idle_downstream_ms: f.idleDownstream,
});

/**
 * Every row the script leaves in the database for one machine, as the truth says it: minute rows,
 * hour and day rows (TIMEZONE Asia/Shanghai), status changes, alarms and the operation lines given (a
 * script for this has no counter re-baseline, whose log line the server writes). What the server
 * stored is compared with it whole, so a figure written twice or lost shows.
 */
export const truthRows = (
  steps: readonly Step[],
  ppmTarget: number,
  operations: readonly { ts: number; comment: string; setValue: string; user: string }[] = [],
) => {
  const { minutes } = minutesOf(steps, ppmTarget);
  const hours = sumMinutes(minutes, (m) => String(shanghaiHour(m)));
  const days = sumMinutes(minutes, shanghaiDay);
  return {
    minutes: [...minutes]
      .sort(([a], [b]) => a - b)
      .map(([minute, f]) => ({ minute, ...figureRow(f) })),
    hours: [...hours]
      .map(([hour, f]) => ({
        hour: Number(hour),
        ...figureRow(f),
        max_minute_produced: f.maxMinute,
        covered_minutes: f.covered,
      }))
      .sort((a, b) => a.hour - b.hour),
    days: [...days]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, f]) => ({
        day,
        ...figureRow(f),
        max_minute_produced: f.maxMinute,
        covered_minutes: f.covered,
      })),
    statusChanges: statusChangesOf(steps).map((s) => ({
      ts: s.ts,
      status: s.status,
      idle_reason: s.status === 1 ? (s.idleReason ?? null) : null,
    })),
    alarms: alarmsOf(steps),
    operations: operations
      .map((o) => ({ ts: o.ts, comment: o.comment, set_value: o.setValue, user_name: o.user }))
      .sort((a, b) => a.ts - b.ts),
  };
};
