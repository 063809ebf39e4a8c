import { describe, expect, it } from 'vitest';
import { instantOf, wallClockOf } from '../foundation/shared/time.ts';
import { splitRange } from './time-range.ts';

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

  it('reads a range inside one day from its whole hours and the minutes of its last', () => {
    expect(splitRange(i('2026-03-02 08:00:00'), i('2026-03-02 17:45:10'), SH)).toEqual({
      days: null,
      hours: [[i('2026-03-02 08:00:00'), i('2026-03-02 17:00:00')]],
      minutes: [[i('2026-03-02 17:00:00'), i('2026-03-02 17:45:10')]],
    });
  });

  it('reads whole days from the day rollup and the two partial ends by hour', () => {
    expect(splitRange(i('2026-03-01 08:00:00'), i('2026-03-05 10:00:00'), SH)).toEqual({
      days: { first: '2026-03-02', last: '2026-03-04' },
      hours: [
        [i('2026-03-01 08:00:00'), i('2026-03-02 00:00:00')],
        [i('2026-03-05 00:00:00'), i('2026-03-05 10:00:00')],
      ],
      minutes: [],
    });
  });

  it('reads days that start and end at midnight from the day rollup alone', () => {
    expect(splitRange(i('2026-03-01 00:00:00'), i('2026-04-01 00:00:00'), SH)).toEqual({
      days: { first: '2026-03-01', last: '2026-03-31' },
      hours: [],
      minutes: [],
    });
  });

  it('reads an overnight range without a whole day by hour, its partial hours by minute', () => {
    expect(splitRange(i('2026-03-01 20:10:00'), i('2026-03-02 08:40:00'), SH)).toEqual({
      days: null,
      hours: [[i('2026-03-01 21:00:00'), i('2026-03-02 08:00:00')]],
      minutes: [
        [i('2026-03-01 20:10:00'), i('2026-03-01 21:00:00')],
        [i('2026-03-02 08:00:00'), i('2026-03-02 08:40:00')],
      ],
    });
  });

  it('reads minutes only when no whole hour is inside', () => {
    expect(splitRange(i('2026-03-01 20:10:00'), i('2026-03-01 20:50:00'), SH)).toEqual({
      days: null,
      hours: [],
      minutes: [[i('2026-03-01 20:10:00'), i('2026-03-01 20:50:00')]],
    });
  });

  it("cuts at the factory's hours where its offset is a half hour (India)", () => {
    const IN = 'Asia/Kolkata';
    const k = (wall: string) => instantOf(wall, IN);
    expect(splitRange(k('2026-03-02 08:00:00'), k('2026-03-02 10:15:00'), IN)).toEqual({
      days: null,
      hours: [[k('2026-03-02 08:00:00'), k('2026-03-02 10:00:00')]],
      minutes: [[k('2026-03-02 10:00:00'), k('2026-03-02 10:15:00')]],
    });
    expect(new Date(k('2026-03-02 10:00:00')).toISOString()).toBe('2026-03-02T04:30:00.000Z');
  });
});
