import { describe, expect, it } from 'vitest';
import { NOTICE_MAX_BYTES, noticeOf, payloadOf } from './notices.ts';

describe('notices between instances', () => {
  it('carry a short list as written', () => {
    const payload = payloadOf({ sns: ['LW-1', 'LW-2'] });
    expect(noticeOf('past_days_written', payload)).toEqual({ sns: ['LW-1', 'LW-2'] });
    expect(noticeOf('sessions_ended', payloadOf({ user: 7 }))).toEqual({ user: 7 });
    expect(noticeOf('sessions_ended', payloadOf({ session: 'ab12' }))).toEqual({ session: 'ab12' });
  });

  it('say "anything may have changed" rather than pass the size PostgreSQL takes', () => {
    const sns = Array.from({ length: 200 }, (_, i) => `LW-${'X'.repeat(40)}-${i}`);
    expect(Buffer.byteLength(JSON.stringify({ sns }))).toBeGreaterThan(NOTICE_MAX_BYTES);
    expect(payloadOf({ sns })).toBe('');
    expect(noticeOf('past_days_written', payloadOf({ sns }))).toBeNull();
    // The longest list that still fits goes as it is, far under PostgreSQL's 8000 bytes.
    const fits = sns.slice(0, 30);
    expect(noticeOf('past_days_written', payloadOf({ sns: fits }))).toEqual({ sns: fits });
    expect(NOTICE_MAX_BYTES).toBeLessThan(8000 / 2);
  });

  it('read a reconnect, an empty payload or one of another shape as "anything"', () => {
    expect(noticeOf('follows_changed', undefined)).toBeNull();
    expect(noticeOf('follows_changed', '')).toBeNull();
    expect(noticeOf('follows_changed', 'not json')).toBeNull();
    expect(noticeOf('follows_changed', '{"users":["7"]}')).toBeNull();
    expect(noticeOf('follows_changed', '{"users":[7]}')).toEqual({ users: [7] });
  });
});
