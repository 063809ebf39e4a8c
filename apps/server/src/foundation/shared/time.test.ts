import { describe, expect, it } from 'vitest';
import { dayElapsedFraction, hourStartOf, last24Hours } from './time.ts';

describe('hourStartOf', () => {
  it('is the instant the factory hour began, in zones whose offset is not whole hours too', () => {
    const at = Date.UTC(2026, 10, 20, 10, 10, 42);
    expect(hourStartOf(at, 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 20, 10));
    // 15:40 in India (UTC+5:30) began at 15:00, 09:30 UTC; 15:55 in Nepal (UTC+5:45) at 09:15.
    expect(hourStartOf(at, 'Asia/Kolkata')).toBe(Date.UTC(2026, 10, 20, 9, 30));
    expect(hourStartOf(at, 'Asia/Kathmandu')).toBe(Date.UTC(2026, 10, 20, 9, 15));
  });
});

describe('dayElapsedFraction', () => {
  it('is the elapsed part of each day, a 23-hour day of a summer-time change included', () => {
    // 2026-03-29 in Berlin: 00:00 is 23:00 UTC the day before, and the clocks skip 02:00–03:00.
    const noon = Date.UTC(2026, 2, 29, 10, 0, 0);
    expect(dayElapsedFraction('2026-03-29', noon, 'Europe/Berlin')).toBeCloseTo(11 / 23, 10);
    // The next day, the same zone: its own bounds, 24 hours long.
    const nextNoon = Date.UTC(2026, 2, 30, 10, 0, 0);
    expect(dayElapsedFraction('2026-03-30', nextNoon, 'Europe/Berlin')).toBe(0.5);
    // And the first day asked again.
    expect(dayElapsedFraction('2026-03-29', noon, 'Europe/Berlin')).toBeCloseTo(11 / 23, 10);
    expect(dayElapsedFraction('2026-03-29', nextNoon, 'Europe/Berlin')).toBe(1);
  });
});

describe('last24Hours', () => {
  it('is the 24 factory hours up to the current one, oldest first, each zone its own', () => {
    const at = Date.UTC(2026, 10, 20, 10, 10, 42);
    const shanghai = last24Hours(at, 'Asia/Shanghai');
    expect(shanghai).toHaveLength(24);
    expect(shanghai.at(-1)).toEqual({ start: Date.UTC(2026, 10, 20, 10), label: '18:00' });
    expect(shanghai[0]).toEqual({ start: Date.UTC(2026, 10, 19, 11), label: '19:00' });
    const kolkata = last24Hours(at, 'Asia/Kolkata');
    expect(kolkata.at(-1)).toEqual({ start: Date.UTC(2026, 10, 20, 9, 30), label: '15:00' });
    // Within the hour the same hours; the next hour moves them on.
    expect(last24Hours(at + 1_000_000, 'Asia/Shanghai')).toBe(shanghai);
    const next = last24Hours(at + 3_600_000, 'Asia/Shanghai');
    expect(next.at(-1)?.label).toBe('19:00');
    expect(next[0]?.label).toBe('20:00');
  });
});
