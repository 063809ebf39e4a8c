import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { z } from 'zod';
import { errorHandler } from '../foundation/http/error-handler.ts';

// A host as a Host header names one: a name or an IPv4 address, or a bracketed IPv6 one, and a
// port. Anything else (it would go into a header) is not taken.
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The socket origins of the host a page was asked from, named explicitly: a page may open
 * sockets to its own origin only (`ws: wss:` let an injected script send to any host). CSP 3's
 * 'self' covers ws:/wss: of the page's host, but Chrome before 71 and Safari before 16 do not
 * — old X5 and UC kernels inside WeChat and DingTalk, and the WKWebView of an iPhone on iOS 15
 * — so 'self' alone would stop the live report there. Both schemes: behind a proxy that ends
 * TLS the server sees http while the phone is on https. The same hosts the handshake's Origin
 * check takes (plugins/socket-origin.ts): the Host header, and PUBLIC_URL.
 */
const ownSockets = (host: string | undefined) =>
  host && HOST.test(host) ? `ws://${host} wss://${host}` : '';

/** What helmet does to a response: the headers it removes and those it sets, in order. */
interface HeaderRecord {
  removed: string[];
  set: [string, string | number | readonly string[]][];
  /** helmet refused (a directive's value it would not send): the request fails, as before. */
  error?: Error;
}
const MAX_RECORDS = 64;

/** helmet run on a stand-in request with this Host and a response that only records. */
const recordHeaders = (
  headers: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
  host: string | undefined,
): HeaderRecord => {
  const record: HeaderRecord = { removed: [], set: [] };
  const response = {
    removeHeader: (name: string) => record.removed.push(name),
    setHeader: (name: string, value: string | number | readonly string[]) => {
      record.set.push([name, value]);
      return response;
    },
  };
  headers({ headers: { host } } as IncomingMessage, response as unknown as ServerResponse, (e) => {
    if (e !== undefined) record.error = e instanceof Error ? e : new Error('helmet refused');
  });
  return record;
};

const socketOriginOf = (url: URL) => `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;

/**
 * Security headers (helmet with the app's CSP) and one error envelope for every failure
 * (docs/design.md section 6). Registered before any route, so every route inherits both.
 *
 * helmet itself, made once: @fastify/helmet builds a new helmet, which parses and checks every
 * CSP directive again, for each request (its index.js, `helmet(configuration)(...)` in an
 * onRequest hook) — 5.5 % of the main thread on the device list's benchmark (issue 27). And
 * helmet's headers, recorded once per socket origin a page may name (`ownSockets`, the one part
 * that depends on the request), then set from the record: helmet rebuilt and checked its CSP for
 * each request, 8–12 % of the list's main thread (issue 27).
 */
export const securityPlugin = fp(
  (app: FastifyInstance, { publicUrl }: { publicUrl: string | undefined }) => {
    const publicSocket = publicUrl && socketOriginOf(new URL(publicUrl));
    const headers = helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'connect-src': [
            "'self'",
            (request: IncomingMessage) => ownSockets(request.headers.host),
            ...(publicSocket ? [publicSocket] : []),
          ],
          // The app's service worker and web manifest (docs/architecture.md, "Offline"), named
          // explicitly: old webview kernels do not all fall back from worker-src to default-src.
          'worker-src': ["'self'"],
          'manifest-src': ["'self'"],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    const records = new Map<string, HeaderRecord>();
    app.addHook('onRequest', (request, reply, done) => {
      const sockets = ownSockets(request.headers.host);
      let record = records.get(sockets);
      if (!record) {
        record = recordHeaders(headers, request.headers.host);
        if (record.error) return done(record.error);
        // A Host header is the client's to choose: only so many are kept.
        if (records.size < MAX_RECORDS) records.set(sockets, record);
      }
      for (const name of record.removed) reply.raw.removeHeader(name);
      for (const [name, value] of record.set) reply.raw.setHeader(name, value);
      done();
    });
    // Where a schema names no message of its own (a number sent for a string), zod's Chinese one.
    z.config(z.locales.zhCN());
    app.setErrorHandler(errorHandler);
    return Promise.resolve();
  },
  { name: 'security' },
);
