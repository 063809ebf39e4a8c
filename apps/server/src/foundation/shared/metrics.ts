import type { FigureSums } from '@linewatch/contracts/rules/figures';

/**
 * The figures of docs/design.md section 5, in one shape for every layer: a reading's effects per
 * minute (reading-effects.ts), the batch and the rollup rows (telemetry/repository.ts), the live
 * state, the real-time report and the device list. Rows map in and out through `figuresFromRow`
 * and `figureColumns`; nothing else names a rollup column. What is shown is derived from them by
 * contracts rules/figures.ts.
 */
export interface Figures extends FigureSums {
  /** Of idleMs, the time waiting on the process before and after (the statistics' waits). */
  idleUpstreamMs: number;
  idleDownstreamMs: number;
}

/** The additive figures: summed by `addFigures` and by the rollup upserts. */
const ADDED_FIGURES = [
  'produced',
  'ok',
  'ng',
  'firstPassOk',
  'gapProduced',
  'runningMs',
  'idleMs',
  'faultMs',
  'idleUpstreamMs',
  'idleDownstreamMs',
] as const satisfies readonly (keyof Figures)[];

/** Each figure's column in rollup_minute and rollup_day. */
const COLUMN = {
  produced: 'produced',
  ok: 'ok',
  ng: 'ng',
  firstPassOk: 'first_pass_ok',
  gapProduced: 'gap_produced',
  runningMs: 'running_ms',
  idleMs: 'idle_ms',
  faultMs: 'fault_ms',
  idleUpstreamMs: 'idle_upstream_ms',
  idleDownstreamMs: 'idle_downstream_ms',
  maxMinuteProduced: 'max_minute_produced',
  coveredMinutes: 'covered_minutes',
} as const satisfies Record<keyof Figures, string>;

export type AddedColumn = (typeof COLUMN)[(typeof ADDED_FIGURES)[number]];

/** The columns both rollup tables sum on conflict. */
export const ADDED_COLUMNS = ADDED_FIGURES.map((k) => COLUMN[k]) as AddedColumn[];

/**
 * A rollup row's figures. rollup_minute has neither max_minute_produced nor covered_minutes:
 * one minute's best minute is its own observed count, and it covers itself or not (a sum over
 * minute rows selects both, as statistics' repository `sums` does).
 */
type FiguresRow = Record<AddedColumn, number> & {
  max_minute_produced?: number;
  covered_minutes?: number;
};

export const emptyFigures = (): Figures => ({
  produced: 0,
  ok: 0,
  ng: 0,
  firstPassOk: 0,
  gapProduced: 0,
  runningMs: 0,
  idleMs: 0,
  faultMs: 0,
  idleUpstreamMs: 0,
  idleDownstreamMs: 0,
  maxMinuteProduced: 0,
  coveredMinutes: 0,
});

/** Adds `from` into `into` (sums, and the larger max minute). */
export const addFigures = (into: Figures, from: Figures): Figures => {
  // Spelled out rather than a loop over ADDED_FIGURES: this runs several times per reading, and
  // a keyed access per figure was a tenth of the ingest thread (metrics.test.ts checks the list).
  into.produced += from.produced;
  into.ok += from.ok;
  into.ng += from.ng;
  into.firstPassOk += from.firstPassOk;
  into.gapProduced += from.gapProduced;
  into.runningMs += from.runningMs;
  into.idleMs += from.idleMs;
  into.faultMs += from.faultMs;
  into.idleUpstreamMs += from.idleUpstreamMs;
  into.idleDownstreamMs += from.idleDownstreamMs;
  into.maxMinuteProduced = Math.max(into.maxMinuteProduced, from.maxMinuteProduced);
  into.coveredMinutes += from.coveredMinutes;
  return into;
};

export const figuresFromRow = (row: FiguresRow): Figures => {
  const f = emptyFigures();
  for (const k of ADDED_FIGURES) f[k] = Number(row[COLUMN[k]]);
  f.maxMinuteProduced = Number(row.max_minute_produced ?? 0);
  f.coveredMinutes = Number(row.covered_minutes ?? 0);
  return f;
};

/**
 * The additive columns of a rollup row (the hour and day rows add max_minute_produced and
 * covered_minutes themselves).
 */
export const figureColumns = (f: Figures): Record<AddedColumn, number> => {
  const out = {} as Record<AddedColumn, number>;
  for (const k of ADDED_FIGURES) out[COLUMN[k]] = f[k];
  return out;
};

/** isCoveredMinute (contracts rules/figures.ts) in SQL, over a rollup_minute row. */
export const COVERED_MINUTE_SQL = 'running_ms > 0 OR produced > gap_produced';

/**
 * A day's count target (produceTargetNumber, ngTargetNumber, capacity) over `days` days, a
 * fraction for part of one: in whole parts. The one proration, for today so far (targetSoFar) and
 * for a statistics range alike.
 */
export const prorated = (dayTarget: number, days: number): number =>
  Math.round(dayTarget * Math.max(0, days));

/**
 * A count target for the day shown: the whole target for a past day, and for today the target
 * prorated to the elapsed part of the factory day (docs/design.md section 5, a day in progress).
 */
export const targetSoFar = (
  target: number,
  elapsedFraction: number,
): { amount: number; partial: boolean } =>
  elapsedFraction >= 1
    ? { amount: target, partial: false }
    : { amount: prorated(target, elapsedFraction), partial: true };
