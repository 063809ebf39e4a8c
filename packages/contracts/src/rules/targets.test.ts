import { describe, expect, it } from 'vitest';
import { cardMeetsTarget, tableMeetsTarget, targetTone } from './targets.ts';

describe('card status colouring (docs/product.md section 4)', () => {
  it('meets counts and PPM at the target, and yield and utilisation only above it', () => {
    expect(cardMeetsTarget('produced', 100, 100)).toBe(true);
    expect(cardMeetsTarget('produced', 99, 100)).toBe(false);
    expect(cardMeetsTarget('ng', 5, 5)).toBe(true);
    expect(cardMeetsTarget('ng', 6, 5)).toBe(false);
    expect(cardMeetsTarget('ppm', 60, 60)).toBe(true);
    expect(cardMeetsTarget('maxPpm', 59.99, 60)).toBe(false);
    expect(cardMeetsTarget('yield', 95, 95)).toBe(false);
    expect(cardMeetsTarget('yield', 95.01, 95)).toBe(true);
    expect(cardMeetsTarget('useRate', 85, 85)).toBe(false);
    expect(cardMeetsTarget('superiorityRate', 90.5, 90)).toBe(true);
  });

  it('does not compare no data', () => {
    expect(cardMeetsTarget('yield', null, 95)).toBeNull();
    expect(cardMeetsTarget('ppm', null, 0)).toBeNull();
  });
});

describe('the history table (docs/product.md section 2)', () => {
  it('is green at or above the target', () => {
    expect(tableMeetsTarget(85, 85)).toBe(true);
    expect(tableMeetsTarget(84.9, 85)).toBe(false);
    expect(tableMeetsTarget(null, 85)).toBeNull();
  });
});

describe('the tone', () => {
  it('is good when met, bad when missed, neutral with no data', () => {
    expect(targetTone(true)).toBe('good');
    expect(targetTone(false)).toBe('bad');
    expect(targetTone(null)).toBe('neutral');
  });
});
