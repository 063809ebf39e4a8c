import { describe, expect, it } from 'vitest';
import {
  dayRangeProblem,
  isWithinCalendar,
  rangeMessages,
  timeRangeProblem,
  wallClockMs,
} from './range.ts';

describe('the 31-day rule', () => {
  it('takes 31 whole days and refuses a 32nd, for days and for times alike', () => {
    expect(dayRangeProblem('2026-01-01', '2026-01-31')).toBeNull();
    expect(dayRangeProblem('2026-01-01', '2026-02-01')).toBe(rangeMessages.rangeTooLong);
    const now = '2026-03-01 12:00:00';
    const range = (start: string, end: string) => ({ dataStartDate: start, dataEndDate: end });
    expect(timeRangeProblem(range('2026-01-01 00:00:00', '2026-02-01 00:00:00'), now)).toBeNull();
    expect(timeRangeProblem(range('2026-01-01 00:00:00', '2026-02-01 00:00:01'), now)).toBe(
      rangeMessages.rangeTooLong,
    );
  });

  it('counts days across a leap day and a year end', () => {
    expect(dayRangeProblem('2024-02-01', '2024-03-02')).toBeNull();
    expect(dayRangeProblem('2024-02-01', '2024-03-03')).toBe(rangeMessages.rangeTooLong);
    expect(dayRangeProblem('2025-12-15', '2026-01-14')).toBeNull();
  });
});

describe('a range of days', () => {
  it('refuses one the wrong way round, and takes a single day', () => {
    expect(dayRangeProblem('2026-01-02', '2026-01-01')).toBe(rangeMessages.startAfterEnd);
    expect(dayRangeProblem('2026-01-02', '2026-01-02')).toBeNull();
  });

  it('knows the calendar runs 2014 to 2050', () => {
    expect(isWithinCalendar('2013-12-31')).toBe(false);
    expect(isWithinCalendar('2014-01-01')).toBe(true);
    expect(isWithinCalendar('2050-12-31')).toBe(true);
    expect(isWithinCalendar('2051-01-01')).toBe(false);
  });
});

describe('a range of times', () => {
  const now = '2026-03-01 12:00:00';

  it('says the first broken rule, in the spec order', () => {
    expect(timeRangeProblem({}, now)).toBe(rangeMessages.timeRequired);
    expect(timeRangeProblem({ dataStartDate: '2026-02-01 00:00' }, now)).toBe(
      rangeMessages.timeRequired,
    );
    const check = (start: string, end: string) =>
      timeRangeProblem({ dataStartDate: start, dataEndDate: end }, now);
    expect(check('2026-02-30 00:00', '2026-03-01 00:00')).toBe(rangeMessages.badTime);
    expect(check('2026-02-01 24:00', '2026-03-01 00:00')).toBe(rangeMessages.badTime);
    expect(check('2026-03-01 00:00', '2026-02-01 00:00')).toBe(rangeMessages.startAfterEnd);
    expect(check('2026-03-01 00:00', '2026-03-01 12:01:00')).toBeNull();
    expect(check('2026-03-01 00:00', '2026-03-01 12:01:01')).toBe(rangeMessages.future);
    // The future is said before the span.
    expect(check('2026-01-01 00:00', '2026-03-02 00:00')).toBe(rangeMessages.future);
  });

  it('compares wall-clock times in one zone', () => {
    expect(wallClockMs('2026-01-02 00:00') - wallClockMs('2026-01-01 00:00')).toBe(86_400_000);
    expect(wallClockMs('2026-01-01 00:00:30')).toBe(Date.UTC(2026, 0, 1, 0, 0, 30));
  });
});
