import { describe, expect, it } from 'vitest';
import { instantOf, splitRange, wallClockOf } from './time-range.ts';

const SH = 'Asia/Shanghai';
const at = (iso: string) => Date.parse(iso);

describe('wall-clock times in the factory time zone', () => {
  it('reads and names instants in Shanghai (UTC+8)', () => {
    expect(wallClockOf(at('2026-03-01T00:30:00Z'), SH)).toBe('2026-03-01 08:30:00');
    expect(instantOf('2026-03-01 08:30:00', SH)).toBe(at('2026-03-01T00:30:00Z'));
  });

  it('settles across a daylight-saving change (New York, spring forward)', () => {
    // 2026-03-08 03:30 EDT is 07:30 UTC; a day earlier 03:30 EST is 08:30 UTC.
    expect(instantOf('2026-03-08 03:30:00', 'America/New_York')).toBe(at('2026-03-08T07:30:00Z'));
    expect(instantOf('2026-03-07 03:30:00', 'America/New_York')).toBe(at('2026-03-07T08:30:00Z'));
  });
});

describe('splitRange', () => {
  const i = (wall: string) => instantOf(wall, SH);

  it('reads a range inside one day from minutes only', () => {
    expect(splitRange(i('2026-03-02 08:00:00'), i('2026-03-02 17:45:10'), SH)).toEqual({
      days: null,
      minutes: [[i('2026-03-02 08:00:00'), i('2026-03-02 17:45:10')]],
    });
  });

  it('reads whole days from the day rollup and the two partial ends from minutes', () => {
    expect(splitRange(i('2026-03-01 08:00:00'), i('2026-03-05 10:00:00'), SH)).toEqual({
      days: { first: '2026-03-02', last: '2026-03-04' },
      minutes: [
        [i('2026-03-01 08:00:00'), i('2026-03-02 00:00:00')],
        [i('2026-03-05 00:00:00'), i('2026-03-05 10:00:00')],
      ],
    });
  });

  it('reads days that start and end at midnight from the day rollup alone', () => {
    expect(splitRange(i('2026-03-01 00:00:00'), i('2026-04-01 00:00:00'), SH)).toEqual({
      days: { first: '2026-03-01', last: '2026-03-31' },
      minutes: [],
    });
  });

  it('reads overnight ranges without a whole day from minutes', () => {
    expect(splitRange(i('2026-03-01 20:00:00'), i('2026-03-02 08:00:00'), SH)).toEqual({
      days: null,
      minutes: [[i('2026-03-01 20:00:00'), i('2026-03-02 08:00:00')]],
    });
  });
});
