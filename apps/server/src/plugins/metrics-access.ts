import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIPv4 } from 'node:net';

/** Who may read /metrics: `allowed`, or why not (401 for a token problem, 403 otherwise). */
export type MetricsAccess = 'allowed' | 'token-required' | 'local-only';

/**
 * Headers a reverse proxy adds. A proxy on the same host makes every outside request arrive
 * from loopback, so a request carrying one is never taken as local.
 */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

const isLoopback = (address: string) => {
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
};

// Hashing first gives equal lengths, so the comparison takes the same time whatever was sent.
const digest = (text: string) => createHash('sha256').update(text).digest();
const sameToken = (given: string, expected: string) =>
  timingSafeEqual(digest(given), digest(expected));

/**
 * With a token set, only `Authorization: Bearer <token>` opens it, from anywhere. Without one,
 * only a request from this host's loopback that no proxy relayed (`peer` is the socket's address,
 * never X-Forwarded-For).
 */
export const metricsAccess = (
  token: string | undefined,
  { peer, headers }: { peer: string | undefined; headers: IncomingHttpHeaders },
): MetricsAccess => {
  if (token !== undefined) {
    const bearer = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '')?.[1];
    return bearer !== undefined && sameToken(bearer, token) ? 'allowed' : 'token-required';
  }
  if (PROXY_HEADERS.some((name) => headers[name] !== undefined)) return 'local-only';
  return peer !== undefined && isLoopback(peer) ? 'allowed' : 'local-only';
};
