import { describe, expect, it } from 'vitest';
import { addDays, defaultDay, defaultRange } from './dates.ts';

describe('history dates', () => {
  const now = new Date(2026, 2, 1, 9, 30);

  it('opens on yesterday, and on the 7 days before today', () => {
    expect(defaultDay(now)).toBe('2026-02-28');
    expect(defaultRange(now)).toEqual({ from: '2026-02-22', to: '2026-02-28' });
  });

  it('steps across months and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});
