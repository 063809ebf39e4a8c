/*
 * The figures' definitions (docs/design.md section 5), zod-free: PPM, max PPM, yield, superiority rate,
 * utilisation and DT from a period's sums. The server derives every figure it shows here (device
 * list, statistics, history, real-time report, alert rules and reports); nothing else divides.
 */

/** A period's sums, as the rollups hold them (the server's Figures adds the waiting times). */
export interface FigureSums {
  /** Every part credited to the period, including those counted across a silence. */
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  /**
   * Of `produced`, the parts counted across a silence (a gap longer than the gap limit): made,
   * so in the totals, but in no observed minute, so in no max PPM and not in PPM's numerator.
   */
  gapProduced: number;
  runningMs: number;
  idleMs: number;
  faultMs: number;
  /**
   * The highest observed-minute count (produced − gapProduced of one minute) among the minutes
   * summed: a maximum, not a sum. 0 for one minute's own figures, whose count is in the fields
   * above; the rollups compute it from the stored minute totals.
   */
  maxMinuteProduced: number;
  /**
   * How many minutes of the period PPM covers: minutes with running time or observed parts
   * (`isCoveredMinute`). A count of distinct minutes, not a sum of time: 0 for one minute's own
   * figures (a flush counts a minute once, the first time it is covered); the rollups hold it.
   */
  coveredMinutes: number;
}

/** Figures go out with two decimals. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** No denominator, no figure: null ("no data", shown as "—"), never 0. */
const percent = (part: number, whole: number): number | null =>
  whole > 0 ? round2((part / whole) * 100) : null;

/** Parts of observed minutes: what max PPM and PPM count. */
export const observedProduced = (f: Pick<FigureSums, 'produced' | 'gapProduced'>): number =>
  f.produced - f.gapProduced;

/**
 * A minute PPM covers (one minute's sums): it had running time or observed parts. Average PPM is
 * the observed parts of a period over its covered minutes, max PPM the best of those minutes: the
 * same minutes, so the average is never above the peak.
 */
export const isCoveredMinute = (
  minute: Pick<FigureSums, 'produced' | 'gapProduced' | 'runningMs'>,
): boolean => minute.runningMs > 0 || observedProduced(minute) > 0;

export interface DerivedFigures {
  /** Average PPM: observed parts per covered minute; null with none. */
  ppm: number | null;
  maxPPM: number;
  /** OK over OK + NG, percent. */
  yield: number | null;
  /** First-pass OK over produced, percent. */
  superiorityRate: number | null;
  /** Running time over observed time (running, idle, fault), percent. */
  useRate: number | null;
  /** Fault time, seconds. */
  dtSeconds: number;
}

/** Every shown figure of a period from its sums: the one derivation. */
export const deriveFigures = (f: FigureSums): DerivedFigures => ({
  ppm: f.coveredMinutes > 0 ? round2(observedProduced(f) / f.coveredMinutes) : null,
  maxPPM: f.maxMinuteProduced,
  yield: percent(f.ok, f.ok + f.ng),
  superiorityRate: percent(f.firstPassOk, f.produced),
  useRate: percent(f.runningMs, f.runningMs + f.idleMs + f.faultMs),
  dtSeconds: Math.round(f.faultMs / 1000),
});
