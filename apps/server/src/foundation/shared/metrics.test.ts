import { describe, expect, it } from 'vitest';
import {
  addFigures,
  derive,
  emptyFigures,
  figureColumns,
  figuresFromRow,
  isCoveredMinute,
  targetSoFar,
  type Figures,
} from './metrics.ts';
import { dayElapsedFraction } from './time.ts';

const figures = (over: Partial<Figures>): Figures => ({ ...emptyFigures(), ...over });

describe('derived figures (DESIGN.md section 5)', () => {
  it('computes PPM per covered minute, yield, superiority rate, utilisation and DT', () => {
    expect(
      derive(
        figures({
          produced: 1200,
          ok: 1176,
          ng: 24,
          firstPassOk: 1140,
          runningMs: 20 * 60_000,
          idleMs: 4 * 60_000,
          faultMs: 1 * 60_000,
          maxMinuteProduced: 70,
          coveredMinutes: 20,
        }),
      ),
    ).toEqual({
      ppm: 60,
      maxPPM: 70,
      yield: 98,
      superiorityRate: 95,
      useRate: 80,
      dtSeconds: 60,
    });
  });

  it('is no data (null), not zero, for a ratio with no denominator', () => {
    expect(derive(emptyFigures())).toEqual({
      ppm: null,
      maxPPM: 0,
      yield: null,
      superiorityRate: null,
      useRate: null,
      dtSeconds: 0,
    });
    // Idle all day: utilisation is a real 0 %, PPM covers no minute.
    expect(derive(figures({ idleMs: 60_000 }))).toMatchObject({ useRate: 0, ppm: null });
  });

  it('counts only observed-minute parts in PPM', () => {
    const f = figures({
      produced: 700,
      ok: 700,
      gapProduced: 100,
      runningMs: 10 * 60_000,
      coveredMinutes: 10,
    });
    expect(derive(f).ppm).toBe(60);
  });

  it('never puts the average above the peak: a start 15 s before a minute ends', () => {
    // 9 parts in 15 s of running, all in one minute: per running minute that read 36 over a
    // peak of 9 (issue 25); over the minute covered it is 9.
    const f = figures({ produced: 9, ok: 9, runningMs: 15_000, maxMinuteProduced: 9 });
    expect(isCoveredMinute(f)).toBe(true);
    expect(derive({ ...f, coveredMinutes: 1 })).toMatchObject({ ppm: 9, maxPPM: 9 });
    // Parts reported in a minute without running time (the reading after the run) cover it too.
    expect(isCoveredMinute(figures({ produced: 3 }))).toBe(true);
    expect(isCoveredMinute(figures({ produced: 3, gapProduced: 3, idleMs: 60_000 }))).toBe(false);
  });
});

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
});
