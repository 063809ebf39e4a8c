/**
 * The derived figures of DESIGN.md section 5, in one place for the list, the real-time report
 * and (later) history and reports.
 */
export interface Totals {
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  runningMs: number;
  idleMs: number;
  faultMs: number;
  maxMinuteProduced: number;
}

/** Totals as the rollup tables name their columns. */
export interface TotalsRow {
  produced: number;
  ok: number;
  ng: number;
  first_pass_ok: number;
  running_ms: number;
  idle_ms: number;
  fault_ms: number;
  max_minute_produced: number;
}

export const totalsOfRow = (r: TotalsRow): Totals => ({
  produced: r.produced,
  ok: r.ok,
  ng: r.ng,
  firstPassOk: r.first_pass_ok,
  runningMs: r.running_ms,
  idleMs: r.idle_ms,
  faultMs: r.fault_ms,
  maxMinuteProduced: r.max_minute_produced,
});

const round2 = (n: number) => Math.round(n * 100) / 100;
const percent = (part: number, whole: number) => (whole > 0 ? round2((part / whole) * 100) : 0);

export const derive = (t: Totals) => ({
  /** Average PPM: produced per running minute. */
  ppm: t.runningMs > 0 ? round2(t.produced / (t.runningMs / 60_000)) : 0,
  maxPPM: t.maxMinuteProduced,
  yield: percent(t.ok, t.ok + t.ng),
  superiorityRate: percent(t.firstPassOk, t.produced),
  useRate: percent(t.runningMs, t.runningMs + t.idleMs + t.faultMs),
  dtSeconds: Math.round(t.faultMs / 1000),
});
