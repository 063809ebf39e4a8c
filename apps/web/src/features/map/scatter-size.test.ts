import { describe, expect, it } from 'vitest';
import { scatterSize } from './scatter-size.ts';

describe('scatter size in 11 steps (docs/product.md section 9)', () => {
  it('steps by max/5 up to a max of 100', () => {
    // step 20: 0–19 → 0, 20–39 → 1, …, 100 → 5
    expect([0, 19, 20, 59, 100].map((v) => scatterSize(v, 100))).toEqual([8, 8, 11, 14, 23]);
  });

  it('steps by max/20 above 100, capped at the eleventh step', () => {
    // max 200: step 10; 200 would be step 20, capped at 10
    expect([5, 10, 95, 200].map((v) => scatterSize(v, 200))).toEqual([8, 11, 35, 38]);
    const sizes = new Set(Array.from({ length: 1001 }, (_, v) => scatterSize(v, 1000)));
    expect(sizes.size).toBe(11);
  });

  it('gives the smallest size when nothing is counted', () => {
    expect(scatterSize(0, 0)).toBe(8);
  });
});
