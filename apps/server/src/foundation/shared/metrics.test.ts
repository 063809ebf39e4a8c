import { describe, expect, it } from 'vitest';
import {
  addFigures,
  emptyFigures,
  figureColumns,
  figuresFromRow,
  prorated,
  targetSoFar,
  type Figures,
} from './metrics.ts';
import { dayElapsedFraction } from './time.ts';

const figures = (over: Partial<Figures>): Figures => ({ ...emptyFigures(), ...over });

describe('one figures type', () => {
  it('maps a rollup row in and out without losing a figure (waiting times included)', () => {
    const f = figures({
      produced: 9,
      ok: 8,
      ng: 1,
      firstPassOk: 7,
      gapProduced: 2,
      runningMs: 6,
      idleMs: 5,
      faultMs: 4,
      idleUpstreamMs: 3,
      idleDownstreamMs: 2,
    });
    const row = figureColumns(f);
    expect(row).toMatchObject({ idle_upstream_ms: 3, idle_downstream_ms: 2, gap_produced: 2 });
    expect(figuresFromRow({ ...row, max_minute_produced: 5, covered_minutes: 4 })).toEqual({
      ...f,
      maxMinuteProduced: 5,
      coveredMinutes: 4,
    });
  });

  it('adds sums and keeps the larger max minute', () => {
    const sum = addFigures(
      figures({ produced: 3, idleUpstreamMs: 1, maxMinuteProduced: 9 }),
      figures({ produced: 4, idleUpstreamMs: 2, maxMinuteProduced: 7 }),
    );
    expect(sum).toMatchObject({ produced: 7, idleUpstreamMs: 3, maxMinuteProduced: 9 });
  });

  it('adds every summed figure (addFigures names them one by one)', () => {
    const summed = Object.keys(emptyFigures()).filter((k) => k !== 'maxMinuteProduced');
    const ones = Object.fromEntries(summed.map((k) => [k, 1])) as Partial<Figures>;
    const sum = addFigures(figures(ones), figures(ones));
    for (const k of summed) expect(sum[k as keyof Figures], k).toBe(2);
  });
});

describe('a day in progress', () => {
  const TZ = 'Asia/Shanghai';
  // 2026-11-22 06:00 in Shanghai (UTC+8) is 22:00 UTC the day before: a quarter of the day.
  const SIX_AM = Date.UTC(2026, 10, 21, 22, 0, 0);

  it('prorates today’s target to the elapsed part of the factory day', () => {
    expect(dayElapsedFraction('2026-11-22', SIX_AM, TZ)).toBe(0.25);
    expect(targetSoFar(1000, dayElapsedFraction('2026-11-22', SIX_AM, TZ))).toEqual({
      amount: 250,
      partial: true,
    });
  });

  it('keeps the whole target for a past day', () => {
    expect(dayElapsedFraction('2026-11-21', SIX_AM, TZ)).toBe(1);
    expect(targetSoFar(1000, 1)).toEqual({ amount: 1000, partial: false });
  });

  it('prorates a day’s count target over a statistics range the same way, in whole parts', () => {
    // 31 days, a day and a half, a third of a day (333.33… rounds to 333), nothing before it starts.
    expect(prorated(1000, 31)).toBe(31_000);
    expect(prorated(1000, 1.5)).toBe(1500);
    expect(prorated(1000, 1 / 3)).toBe(333);
    expect(prorated(1000, -0.1)).toBe(0);
  });
});
