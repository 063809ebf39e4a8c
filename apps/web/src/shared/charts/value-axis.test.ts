import { describe, expect, it } from 'vitest';
import { fiveTicks } from './value-axis.ts';

const ticksOf = ({ min, max, interval }: ReturnType<typeof fiveTicks>) =>
  Array.from({ length: Math.round((max - min) / interval) + 1 }, (_, i) =>
    Number((min + i * interval).toPrecision(12)),
  );

describe('fiveTicks', () => {
  it.each([
    [[0, 0, 0], {}, [0, 1, 2, 3, 4]],
    [[null, null], {}, [0, 1, 2, 3, 4]],
    [[73, 121, null, 58], {}, [0, 50, 100, 150, 200]],
    [[2.9, 0.4], {}, [0, 1, 2, 3, 4]],
    [[0.09], {}, [0, 0.025, 0.05, 0.075, 0.1]],
    [[1439, 3], { whole: true }, [0, 500, 1000, 1500, 2000]],
    [[7, 12], { whole: true }, [0, 5, 10, 15, 20]],
    [[1], { whole: true }, [0, 1, 2, 3, 4]],
  ])('%j %j → %j', (values, options, ticks) => {
    expect(ticksOf(fiveTicks(values, options))).toEqual(ticks);
  });

  it('always reaches the largest value, in five ticks, from 0', () => {
    for (let max = 0.01; max < 1e6; max *= 1.37) {
      const axis = fiveTicks([max]);
      expect(axis.min).toBe(0);
      expect(axis.max).toBeGreaterThanOrEqual(max);
      expect(axis.max / axis.interval).toBeCloseTo(4);
    }
  });
});
