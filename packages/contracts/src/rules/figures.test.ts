import { describe, expect, it } from 'vitest';
import { deriveFigures, isCoveredMinute, type FigureSums } from './figures.ts';

const sums = (over: Partial<FigureSums>): FigureSums => ({
  produced: 0,
  ok: 0,
  ng: 0,
  firstPassOk: 0,
  gapProduced: 0,
  runningMs: 0,
  idleMs: 0,
  faultMs: 0,
  maxMinuteProduced: 0,
  coveredMinutes: 0,
  ...over,
});

describe('derived figures (docs/design.md section 5)', () => {
  it('computes PPM per covered minute, yield, superiority rate, utilisation and DT', () => {
    expect(
      deriveFigures(
        sums({
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
    expect(deriveFigures(sums({}))).toEqual({
      ppm: null,
      maxPPM: 0,
      yield: null,
      superiorityRate: null,
      useRate: null,
      dtSeconds: 0,
    });
    // Idle all day: utilisation is a real 0 %, PPM covers no minute.
    expect(deriveFigures(sums({ idleMs: 60_000 }))).toMatchObject({ useRate: 0, ppm: null });
  });

  it('counts only observed-minute parts in PPM', () => {
    const f = sums({
      produced: 700,
      ok: 700,
      gapProduced: 100,
      runningMs: 10 * 60_000,
      coveredMinutes: 10,
    });
    expect(deriveFigures(f).ppm).toBe(60);
  });

  it('never puts the average above the peak: a start 15 s before a minute ends', () => {
    // 9 parts in 15 s of running, all in one minute: per running minute that read 36 over a
    // peak of 9 (issue 25); over the minute covered it is 9.
    const f = sums({ produced: 9, ok: 9, runningMs: 15_000, maxMinuteProduced: 9 });
    expect(isCoveredMinute(f)).toBe(true);
    expect(deriveFigures({ ...f, coveredMinutes: 1 })).toMatchObject({ ppm: 9, maxPPM: 9 });
    // Parts reported in a minute without running time (the reading after the run) cover it too.
    expect(isCoveredMinute(sums({ produced: 3 }))).toBe(true);
    expect(isCoveredMinute(sums({ produced: 3, gapProduced: 3, idleMs: 60_000 }))).toBe(false);
  });
});
