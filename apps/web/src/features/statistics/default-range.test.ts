import { describe, expect, it } from 'vitest';
import { defaultRange, fromInput, toInput } from './default-range.ts';

describe('the statistics default range (docs/product.md section 9)', () => {
  it('starts at 08:00 today from 08:00 on', () => {
    expect(defaultRange(new Date(2026, 2, 5, 8, 0, 0))).toEqual({
      start: '2026-03-05 08:00:00',
      end: '2026-03-05 08:00:00',
    });
    expect(defaultRange(new Date(2026, 2, 5, 15, 4, 9)).start).toBe('2026-03-05 08:00:00');
  });

  it('starts at 08:00 yesterday before 08:00, across a month end', () => {
    expect(defaultRange(new Date(2026, 2, 1, 7, 59, 59))).toEqual({
      start: '2026-02-28 08:00:00',
      end: '2026-03-01 07:59:59',
    });
  });

  it('converts between the picker and the query', () => {
    expect(fromInput('2026-03-05T08:30')).toBe('2026-03-05 08:30:00');
    expect(fromInput('2026-03-05T08:30:15')).toBe('2026-03-05 08:30:15');
    expect(fromInput('2026-03-05T08:30:15.000')).toBe('2026-03-05 08:30:15');
    expect(fromInput('')).toBe('');
    expect(toInput('2026-03-05 08:30:00')).toBe('2026-03-05T08:30:00');
  });
});
