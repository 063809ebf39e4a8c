/*
 * docs/product.md section 9: every value axis shows 4–5 ticks. ECharts' splitNumber is only a hint (it drew 2
 * ticks for an all-zero day and 6 for some), so a chart's counts axis is laid out here: from 0 in
 * four equal steps of a round size (1, 2, 2.5 or 5 × 10ⁿ) that reach the largest value: five ticks.
 */

const STEPS = [1, 2, 2.5, 5, 10] as const;

/** The smallest round step (1, 2, 2.5, 5 × 10ⁿ; whole when `whole`) with 4 steps ≥ `max`. */
const roundStep = (max: number, whole: boolean): number => {
  const wanted = max / 4;
  if (!(wanted > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(wanted));
  for (const s of STEPS) {
    // 2.5 × 0.01 is 0.025000000000000001 in floating point: keep the round figure.
    const step = Number((s * power).toPrecision(12));
    if (step >= wanted && (!whole || Number.isInteger(step))) return step;
  }
  return 10 * power;
};

/** min, max and interval of a value axis from 0 with five ticks covering `values` (nulls skipped). */
export const fiveTicks = (values: readonly (number | null)[], { whole = false } = {}) => {
  const max = Math.max(0, ...values.filter((v): v is number => v !== null));
  const interval = roundStep(max, whole);
  return { min: 0, max: interval * 4, interval };
};
