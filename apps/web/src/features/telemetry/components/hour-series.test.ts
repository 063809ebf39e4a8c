import { describe, expect, it } from 'vitest';
import { hourSeries } from './hour-series.ts';

const hours = (values: number[], partial?: number) =>
  values.map((produced, i) => ({
    hour: `${String(i).padStart(2, '0')}:00`,
    produced,
    ...(partial !== undefined && i === values.length - 1 ? { partial } : {}),
  }));

describe('the 24-hour chart’s hour in progress', () => {
  it('draws the current hour apart and projects it, instead of a dip', () => {
    const s = hourSeries(hours([3600, 3600, 900], 0.25));
    expect(s.complete).toEqual([3600, 3600, null]);
    expect(s.current).toEqual([null, null, 900]);
    expect(s.projected).toEqual([null, 3600, 3600]);
    expect(s.partial).toBe(0.25);
  });

  it('marks but does not project an hour barely begun', () => {
    const s = hourSeries(hours([3600, 30], 0.01));
    expect(s.current).toEqual([null, 30]);
    expect(s.projected).toEqual([null, null]);
  });

  it('draws complete hours as they are', () => {
    const s = hourSeries(hours([1, 2, 3]));
    expect(s).toEqual({
      complete: [1, 2, 3],
      current: [null, null, null],
      projected: [null, null, null],
      partial: null,
    });
  });
});
