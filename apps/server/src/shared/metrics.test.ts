import { describe, expect, it } from 'vitest';
import { derive } from './metrics.ts';

describe('derived figures (DESIGN.md section 5)', () => {
  it('computes PPM per running minute, yield, superiority rate, utilisation and DT', () => {
    const figures = derive({
      produced: 1200,
      ok: 1176,
      ng: 24,
      firstPassOk: 1140,
      runningMs: 20 * 60_000,
      idleMs: 4 * 60_000,
      faultMs: 1 * 60_000,
      maxMinuteProduced: 70,
    });
    expect(figures).toEqual({
      ppm: 60,
      maxPPM: 70,
      yield: 98,
      superiorityRate: 95,
      useRate: 80,
      dtSeconds: 60,
    });
  });

  it('is zero, not NaN, for a machine that has not run', () => {
    expect(
      derive({
        produced: 0,
        ok: 0,
        ng: 0,
        firstPassOk: 0,
        runningMs: 0,
        idleMs: 0,
        faultMs: 0,
        maxMinuteProduced: 0,
      }),
    ).toEqual({
      ppm: 0,
      maxPPM: 0,
      yield: 0,
      superiorityRate: 0,
      useRate: 0,
      dtSeconds: 0,
    });
  });
});
