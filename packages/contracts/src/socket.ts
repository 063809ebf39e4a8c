/** The sockets' shared words (subprotocol, close codes) and the real-time labels: no zod here. */
import type { ProductDataKey } from './telemetry.ts';

/** Labels of the real-time report's product cards. */
export const productDataNames: Record<ProductDataKey, string> = {
  ppm: '实时PPM',
  peakPpm: '峰值PPM',
  avgPpm: '平均PPM',
  yield: '良率',
  produced: '产量',
  ok: 'OK数',
  ng: 'NG数',
  dt: '停机时间',
};

export const progressPercent = (existing: number, amount: number): string =>
  existing === 0 || amount === 0 ? '0.00' : Math.min(100, (existing / amount) * 100).toFixed(2);

/**
 * Sockets authenticate by the keyId cookie (same origin), the keyId header, or a
 * `Sec-WebSocket-Protocol` value `lw-key.<keyId>` offered beside `linewatch` (the server answers
 * `linewatch`) — never by the URL, which ends up in logs.
 */
export const SOCKET_PROTOCOL = 'linewatch';
export const SOCKET_KEY_PROTOCOL_PREFIX = 'lw-key.';

/** The server closes a socket with this code when keyId or visibility is refused. */
export const SOCKET_CLOSE = {
  notSignedIn: 4405,
  forbidden: 4403,
  badRequest: 4400,
  /** No machine has this SN (a stale link): choose again from the list. */
  unknownMachine: 4404,
} as const;

// The messages' types, for code that only reads them (tsc erases these: no zod comes with them).
export type { ProductDataKey, RealtimeClientMessage, RealtimePayload } from './telemetry.ts';
