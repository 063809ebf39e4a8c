import { describe, expect, it } from 'vitest';
import { formatDuration, formatNumber, formatPercent } from './format.ts';

describe('formatting', () => {
  it('formats percents with at most two decimals', () => {
    expect(formatPercent(98.456)).toBe('98.46%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(Number.NaN)).toBe('--');
    // No data is not zero.
    expect(formatPercent(null)).toBe('—');
    expect(formatNumber(null)).toBe('—');
  });

  it('keeps counts whole and rates short', () => {
    expect(formatNumber(1200)).toBe('1200');
    expect(formatNumber(12.3456)).toBe('12.35');
  });

  it('turns seconds into HH:mm:ss, past 24 hours too', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(3725)).toBe('01:02:05');
    expect(formatDuration(90061)).toBe('25:01:01');
    expect(formatDuration(-5)).toBe('00:00:00');
  });
});
