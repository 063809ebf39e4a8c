import type { RealtimePayload } from '@linewatch/contracts/socket';

type Points = RealtimePayload['dateData'];

/** Below this share of the hour, a projection says more about chance than about the machine. */
const PROJECT_FROM = 0.1;

interface HourSeries {
  /** Complete hours; the hour in progress is null (it is not a dip). */
  complete: (number | null)[];
  /** The hour in progress as counted so far, alone at the last index. */
  current: (number | null)[];
  /** A dashed step from the last complete hour to the current hour's pace, when known. */
  projected: (number | null)[];
  /** The fraction of the current hour elapsed, or null when every point is complete. */
  partial: number | null;
}

/**
 * The 24-hour chart's series: the hour in progress (the last point, `partial` of it elapsed) is
 * drawn apart, marked, with its projection at the current pace, so a half-made hour does not
 * read as a collapse (docs/design.md section 5, a day in progress).
 */
export const hourSeries = (points: Points): HourSeries => {
  const last = points.at(-1);
  const partial = last?.partial ?? null;
  const inProgress = last !== undefined && partial !== null && partial < 1;
  const n = points.length;
  const complete = points.map((p, i) => (inProgress && i === n - 1 ? null : p.produced));
  const current = points.map((p, i) => (inProgress && i === n - 1 ? p.produced : null));
  const projected = points.map((p, i) => {
    if (!inProgress || partial < PROJECT_FROM) return null;
    if (i === n - 2) return p.produced;
    if (i === n - 1) return Math.round(p.produced / partial);
    return null;
  });
  return { complete, current, projected, partial: inProgress ? partial : null };
};
