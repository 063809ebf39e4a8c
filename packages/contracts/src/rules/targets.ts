/*
 * Target colouring, zod-free: whether a figure meets its target, and the tone it is shown in.
 * Every screen that colours a figure against its target asks here.
 */

/** How a figure compares with its target to meet it. */
type Comparison = 'atLeast' | 'atMost' | 'above';

/**
 * docs/product.md section 4, card status colouring (the device list's and the statistics' cards): produced
 * at or above target, NG at or below, average and max PPM at or above, yield, superiority rate
 * and utilisation above.
 */
const CARD_TARGETS = {
  produced: 'atLeast',
  ng: 'atMost',
  ppm: 'atLeast',
  maxPpm: 'atLeast',
  yield: 'above',
  superiorityRate: 'above',
  useRate: 'above',
} as const satisfies Record<string, Comparison>;
export type CardFigure = keyof typeof CARD_TARGETS;

const meets = (comparison: Comparison, actual: number | null, target: number): boolean | null => {
  if (actual === null) return null;
  if (comparison === 'atMost') return actual <= target;
  return comparison === 'above' ? actual > target : actual >= target;
};

/**
 * Whether a card's figure meets its target: true, false, or null when the figure is no data
 * (null: not comparable, a neutral colour). Counts compare with the target due by now.
 */
export const cardMeetsTarget = (
  figure: CardFigure,
  actual: number | null,
  target: number,
): boolean | null => meets(CARD_TARGETS[figure], actual, target);

/**
 * docs/product.md section 2, the history range view's table: PPM, superiority rate and utilisation are green
 * at or above their target, red below; null with no data.
 */
export const tableMeetsTarget = (actual: number | null, target: number): boolean | null =>
  meets('atLeast', actual, target);

/** The tone a verdict is shown in: green when met, red when missed, neutral with no data. */
export type TargetTone = 'good' | 'bad' | 'neutral';
export const targetTone = (met: boolean | null): TargetTone =>
  met === null ? 'neutral' : met ? 'good' : 'bad';
