import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsapiSignature } from './dingtalk-client.ts';
import {
  openPendingIdentity,
  PENDING_IDENTITY_TTL_MS,
  sealPendingIdentity,
} from './pending-identity.ts';
import { FAILURE_WINDOW_MS, FailureEntries } from './sign-in-audit.ts';
import { SpentCodes } from './spent-codes.ts';

// The pure pieces of messaging-app sign-in: no I/O.

const SECRET = 'a-test-secret-of-some-length';

describe('pending identity cookie', () => {
  const identity = { provider: 'wechat', subject: 'o-123' } as const;

  it('opens what it sealed, until it expires', () => {
    const now = 1_000_000;
    const token = sealPendingIdentity(SECRET, identity, now);
    const opened = openPendingIdentity(SECRET, token, now + 1);
    expect(opened).toMatchObject({
      ...identity,
      mobile: undefined,
      expiresAt: new Date(now + PENDING_IDENTITY_TTL_MS),
    });
    // Each seal has its own id: one binding spends one (identity/repository.ts).
    expect(opened?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(
      openPendingIdentity(SECRET, sealPendingIdentity(SECRET, identity, now), now)?.id,
    ).not.toBe(opened?.id);
    expect(openPendingIdentity(SECRET, token, now + PENDING_IDENTITY_TTL_MS)).toBeNull();
  });

  it('refuses a token sealed with another secret, altered, or missing', () => {
    const token = sealPendingIdentity(SECRET, identity);
    expect(openPendingIdentity('another-secret-entirely', token)).toBeNull();
    const [payload = '', mac = ''] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ provider: 'wechat', subject: 'o-victim', exp: Date.now() + 60_000 }),
    ).toString('base64url');
    expect(openPendingIdentity(SECRET, `${forged}.${mac}`)).toBeNull();
    expect(openPendingIdentity(SECRET, `${payload}.${mac}x`)).toBeNull();
    expect(openPendingIdentity(SECRET, undefined)).toBeNull();
    expect(openPendingIdentity(SECRET, 'no-dot')).toBeNull();
  });
});

describe('spent codes', () => {
  it('takes a code once within its lifetime, and forgets it after', () => {
    const codes = new SpentCodes(1000);
    expect(codes.spend('c1', 0)).toBe(true);
    expect(codes.spend('c1', 999)).toBe(false);
    expect(codes.spend('c2', 999)).toBe(true);
    expect(codes.spend('c1', 1000)).toBe(true);
  });
});

describe('DingTalk JSAPI signature', () => {
  it('is the SHA-1 hex of jsapi_ticket, noncestr, timestamp and url in that order', () => {
    const input = {
      ticket: 'TICKET',
      nonceStr: 'abc',
      timeStamp: 1_700_000_000_000,
      url: 'https://app.example/login?redirect=%2Fcenter',
    };
    const plain =
      'jsapi_ticket=TICKET&noncestr=abc&timestamp=1700000000000' +
      '&url=https://app.example/login?redirect=/center';
    expect(jsapiSignature(input)).toBe(createHash('sha1').update(plain).digest('hex'));
    // A URL that is not valid percent-encoding is signed as given.
    const odd = { ...input, url: 'https://app.example/%E0%A4%A' };
    expect(jsapiSignature(odd)).toBe(
      createHash('sha1')
        .update(
          'jsapi_ticket=TICKET&noncestr=abc&timestamp=1700000000000&url=https://app.example/%E0%A4%A',
        )
        .digest('hex'),
    );
  });
});

describe('failed sign-in entries of the audit log', () => {
  it('one per subject and quarter hour, at most the limit of them, the rest in one overflow entry', () => {
    const entries = new FailureEntries(3);
    const start = 10 * FAILURE_WINDOW_MS;
    const keys = ['user:1', 'user:1', 'address:a', 'user:2', 'address:b', 'address:c'].map(
      (subject) => entries.entryFor(subject, start + 1000),
    );
    expect(new Set(keys.map((k) => k.key)).size).toBe(4);
    expect(keys.map((k) => k.overflow)).toEqual([false, false, false, false, true, true]);
    expect(keys[4]!.key).toBe(keys[5]!.key);
    // Those seen before the limit keep their own entry; a new quarter hour starts afresh.
    expect(entries.entryFor('user:1', start + 2000)).toEqual(keys[0]);
    const next = entries.entryFor('address:b', start + FAILURE_WINDOW_MS);
    expect(next.overflow).toBe(false);
    expect(next.key).not.toBe(keys[4]!.key);
  });
});
