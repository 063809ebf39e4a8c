import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
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

const socketOriginOf = (url: URL) => `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;

/**
 * Security headers (helmet with the app's CSP) and one error envelope for every failure
 * (docs/design.md section 6). Registered before any route, so every route inherits both.
 *
 * helmet itself, made once: @fastify/helmet builds a new helmet, which parses and checks every
 * CSP directive again, for each request (its index.js, `helmet(configuration)(...)` in an
 * onRequest hook) — 5.5 % of the main thread on the device list's benchmark (issue 27).
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
    app.addHook('onRequest', (request, reply, done) => {
      headers(request.raw, reply.raw, (error?: unknown) =>
        done(error === undefined ? undefined : (error as Error)),
      );
    });
    // Where a schema names no message of its own (a number sent for a string), zod's Chinese one.
    z.config(z.locales.zhCN());
    app.setErrorHandler(errorHandler);
    return Promise.resolve();
  },
  { name: 'security' },
);
