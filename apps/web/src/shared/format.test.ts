import { describe, expect, it } from 'vitest';
import { formatAge, formatDuration, formatNumber, formatPercent } from './format.ts';

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

  it('says how old data is in minutes, hours or days', () => {
    expect(formatAge(59_000)).toBe('刚刚');
    expect(formatAge(3 * 60_000 + 5_000)).toBe('3分钟前');
    expect(formatAge(59 * 60_000)).toBe('59分钟前');
    expect(formatAge(2 * 3_600_000)).toBe('2小时前');
    expect(formatAge(50 * 3_600_000)).toBe('2天前');
    // A phone clock set back: never "in the future".
    expect(formatAge(-5_000)).toBe('刚刚');
  });
});
