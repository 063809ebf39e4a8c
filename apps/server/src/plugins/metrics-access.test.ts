import { describe, expect, it } from 'vitest';
import { metricsAccess } from './metrics-access.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('metricsAccess without a token', () => {
  it.each(['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'])('lets loopback %s in', (peer) => {
    expect(metricsAccess(undefined, { peer, headers: {} })).toBe('allowed');
  });

  it.each(['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', '::ffff:128.0.0.1', undefined])(
    'refuses %s',
    (peer) => {
      expect(metricsAccess(undefined, { peer, headers: {} })).toBe('local-only');
    },
  );

  it.each(['x-forwarded-for', 'forwarded', 'x-real-ip'])(
    'refuses loopback relayed by a proxy (%s)',
    (header) => {
      expect(metricsAccess(undefined, { peer: '127.0.0.1', headers: { [header]: '' } })).toBe(
        'local-only',
      );
    },
  );
});

describe('metricsAccess with a token', () => {
  it.each([`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `Bearer  ${TOKEN} `])(
    'takes %j',
    (authorization) => {
      expect(
        metricsAccess(TOKEN, {
          peer: '203.0.113.9',
          headers: { authorization, 'x-forwarded-for': '203.0.113.9' },
        }),
      ).toBe('allowed');
    },
  );

  it.each([
    undefined,
    TOKEN,
    `Bearer ${TOKEN.slice(1)}`,
    `Bearer ${TOKEN}x`,
    `Basic ${TOKEN}`,
    'Bearer',
  ])('asks for it when the header is %j, even from loopback', (authorization) => {
    const headers = authorization === undefined ? {} : { authorization };
    expect(metricsAccess(TOKEN, { peer: '127.0.0.1', headers })).toBe('token-required');
  });
});
