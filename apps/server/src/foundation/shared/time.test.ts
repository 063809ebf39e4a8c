import { describe, expect, it } from 'vitest';
import { hourStartOf } from './time.ts';

describe('hourStartOf', () => {
  it('is the instant the factory hour began, in zones whose offset is not whole hours too', () => {
    const at = Date.UTC(2026, 10, 20, 10, 10, 42);
    expect(hourStartOf(at, 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 20, 10));
    // 15:40 in India (UTC+5:30) began at 15:00, 09:30 UTC; 15:55 in Nepal (UTC+5:45) at 09:15.
    expect(hourStartOf(at, 'Asia/Kolkata')).toBe(Date.UTC(2026, 10, 20, 9, 30));
    expect(hourStartOf(at, 'Asia/Kathmandu')).toBe(Date.UTC(2026, 10, 20, 9, 15));
  });
});
