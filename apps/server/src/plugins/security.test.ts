import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';

// `connect-src ws: wss:` let a page's script open a socket to any host: an injected script could
// send what it read anywhere. Only this origin now, named explicitly for browsers whose 'self'
// does not cover ws:/wss: (Chrome before 71, Safari before 16: old in-app browsers and iPhones).

/** The CSP's connect-src of a response to a request that names `host` in its Host header. */
const connectSrc = (server: TestServer, host: string) =>
  new Promise<string[]>((resolve, reject) => {
    const url = new URL(server.baseUrl);
    request(
      { host: url.hostname, port: url.port, path: '/login', headers: { host } },
      (response) => {
        response.resume();
        const csp = String(response.headers['content-security-policy'] ?? '');
        const directive = csp.split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';
        resolve(directive.trim().split(/\s+/).slice(1));
      },
    )
      .on('error', reject)
      .end();
  });

describe('the pages’ connect-src', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://linewatch.example.cn' });
  });
  afterAll(() => server?.close());
  const publicSocket = 'wss://linewatch.example.cn';

  it('allows sockets to the host the page was asked from and to PUBLIC_URL, no other', async () => {
    expect(await connectSrc(server, '192.168.1.20:3000')).toEqual([
      "'self'",
      'ws://192.168.1.20:3000',
      'wss://192.168.1.20:3000',
      publicSocket,
    ]);
    // A proxy that ends TLS: the server is asked on http, the phone is on https.
    expect(await connectSrc(server, 'lw.factory.cn')).toEqual([
      "'self'",
      'ws://lw.factory.cn',
      'wss://lw.factory.cn',
      publicSocket,
    ]);
    expect(await connectSrc(server, '[::1]:3000')).toEqual([
      "'self'",
      'ws://[::1]:3000',
      'wss://[::1]:3000',
      publicSocket,
    ]);
  });

  it('takes nothing from a Host header that is no host', async () => {
    expect(await connectSrc(server, 'evil.example wss://attacker.example')).toEqual([
      "'self'",
      publicSocket,
    ]);
  });
});
