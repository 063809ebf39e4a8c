import { describe, expect, it } from 'vitest';
import { calendarDate, isCalendarDate, text } from './primitives.ts';

describe('calendarDate', () => {
  it.each(['2026-02-28', '2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01'])(
    'accepts the real date %s',
    (value) => expect(calendarDate().safeParse(value).success).toBe(true),
  );

  it.each([
    '2026-02-30',
    '2025-02-29',
    '1900-02-29',
    '0000-00-00',
    '2026-11-31',
    '2026-13-45',
    '2026-00-10',
    '2026-1-1',
    '2026-01-01T00:00',
  ])('refuses %s', (value) => expect(isCalendarDate(value)).toBe(false));
});

describe('text', () => {
  it.each(['LW\u0000x', 'a\u0007b', 'tab\there', 'line\nbreak', '\u009b', 'lone \ud800'])(
    'refuses control characters and lone surrogates: %j',
    (value) => expect(text().safeParse(value).success).toBe(false),
  );

  it.each(['', 'LW-S1-003', '产线一 工序A', 'emoji 😀'])('accepts %j', (value) =>
    expect(text().safeParse(value).success).toBe(true),
  );
});
