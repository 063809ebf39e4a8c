/** Scatter point sizes in px, smallest to largest: 11 steps (docs/product.md section 9). */
const SMALLEST = 8;
const STEP_PX = 3;
const STEPS = 11;

/**
 * A point's size by its count among the counts shown: the step is max/20 when max > 100, else
 * max/5 (docs/product.md section 9); step k of 0…10 is SMALLEST + k × STEP_PX.
 */
export const scatterSize = (value: number, max: number): number => {
  if (max <= 0 || value <= 0) return SMALLEST;
  const step = max > 100 ? max / 20 : max / 5;
  const k = Math.min(STEPS - 1, Math.floor(value / step));
  return SMALLEST + k * STEP_PX;
};
