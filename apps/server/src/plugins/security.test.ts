import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityPlugin } from './security.ts';

// `connect-src ws: wss:` let a page's script open a socket to any host: an injected script could
// send what it read anywhere. Only this origin now, named explicitly for browsers whose 'self'
// does not cover ws:/wss: (Chrome before 71, Safari before 16: old in-app browsers and iPhones).

const app = Fastify();
beforeAll(async () => {
  await app.register(securityPlugin, { publicUrl: 'https://linewatch.example.cn' });
  app.get('/login', async () => 'page');
  await app.ready();
});
afterAll(() => app.close());

/** The CSP's connect-src of a page asked for with `host` in its Host header. */
const connectSrc = async (host: string) => {
  const response = await app.inject({ url: '/login', headers: { host } });
  const csp = String(response.headers['content-security-policy'] ?? '');
  const directive = csp.split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';
  return directive.trim().split(/\s+/).slice(1);
};
const publicSocket = 'wss://linewatch.example.cn';

describe('the pages’ connect-src', () => {
  it('allows sockets to the host the page was asked from and to PUBLIC_URL, no other', async () => {
    expect(await connectSrc('192.168.1.20:3000')).toEqual([
      "'self'",
      'ws://192.168.1.20:3000',
      'wss://192.168.1.20:3000',
      publicSocket,
    ]);
    // A proxy that ends TLS: the server is asked on http, the phone is on https.
    expect(await connectSrc('lw.factory.cn')).toEqual([
      "'self'",
      'ws://lw.factory.cn',
      'wss://lw.factory.cn',
      publicSocket,
    ]);
    expect(await connectSrc('[::1]:3000')).toEqual([
      "'self'",
      'ws://[::1]:3000',
      'wss://[::1]:3000',
      publicSocket,
    ]);
  });

  it('takes nothing from a Host header that is no host', async () => {
    expect(await connectSrc('evil.example wss://attacker.example')).toEqual([
      "'self'",
      publicSocket,
    ]);
  });
});

describe('helmet’s headers, recorded once per socket origin', () => {
  it('sends every host its own connect-src, before and after it and others were recorded', async () => {
    const hosts = Array.from({ length: 80 }, (_, i) => `10.0.0.${i}:3000`);
    for (const host of [...hosts, ...hosts.slice(0, 3), hosts[79]!])
      expect(await connectSrc(host)).toEqual([
        "'self'",
        `ws://${host}`,
        `wss://${host}`,
        publicSocket,
      ]);
  });

  it('sends the same headers to the second request of a host as to the first', async () => {
    const ask = () => app.inject({ url: '/login', headers: { host: 'lw.factory.cn' } });
    const first = (await ask()).headers;
    const second = (await ask()).headers;
    const helmetHeaders = (h: typeof first) =>
      Object.fromEntries(
        Object.entries(h).filter(([name]) => !/^(date|content-length)$/.test(name)),
      );
    expect(helmetHeaders(second)).toEqual(helmetHeaders(first));
    expect(first).toMatchObject({
      'x-content-type-options': 'nosniff',
      'strict-transport-security': expect.stringContaining('max-age=') as unknown,
      'cross-origin-opener-policy': 'same-origin',
    });
  });
});
