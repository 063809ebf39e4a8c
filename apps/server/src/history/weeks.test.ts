import { describe, expect, it } from 'vitest';
import { weeksOf } from './service.ts';

describe('the weeks of a range', () => {
  it('labels each week by its first day inside the range, never a day before it', () => {
    // 2026-11-20 is a Friday: its week began on Monday 11-16, outside the range.
    expect(weeksOf('2026-11-20', '2026-12-03')).toEqual([
      { monday: '2026-11-16', label: '2026-11-20' },
      { monday: '2026-11-23', label: '2026-11-23' },
      { monday: '2026-11-30', label: '2026-11-30' },
    ]);
  });

  it('a range starting on a Monday is labelled by its Mondays', () => {
    expect(weeksOf('2026-11-16', '2026-11-22')).toEqual([
      { monday: '2026-11-16', label: '2026-11-16' },
    ]);
  });
});
