import type { FastifyServerOptions } from 'fastify';

const KEY_IN_URL = /([?&;]keyId=)[^&#]*/gi;

/** A URL with the value of any keyId parameter replaced (old clients put it in the query). */
export const redactUrl = (url: string): string => url.replace(KEY_IN_URL, '$1[Redacted]');

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * Pino settings of the server: a session token must never reach the log. The request line's URL
 * has any keyId value masked, and the headers that can carry one (keyId, cookie, the socket
 * protocol) are redacted should anything log headers.
 */
export const loggerOptions = (
  level: string,
): Exclude<NonNullable<FastifyServerOptions['logger']>, boolean> => ({
  level,
  redact: {
    paths: [
      'req.headers.keyid',
      'req.headers.cookie',
      'req.headers["sec-websocket-protocol"]',
      'res.headers["set-cookie"]',
      'headers.keyid',
      'headers.cookie',
    ],
    censor: '[Redacted]',
  },
  serializers: {
    req: (request: LoggedRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    }),
  },
});
