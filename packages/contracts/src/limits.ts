/** Business constants of docs/product.md section 9 (the page sizes: rules/paging.ts). */
export const GATEWAY_SERIAL_LENGTH = 12;
export const SOCKET_RETRY_MS = 5_000;
export const REALTIME_RESEND_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** A machine with no telemetry for this long is shown offline (docs/design.md section 5). */
export const OFFLINE_AFTER_MS = 60_000;
/** Gateways publish each machine at least this often. */
export const TELEMETRY_HEARTBEAT_MS = 5_000;
/** Maximum size of one WebSocket message from a client. */
export const SOCKET_MAX_PAYLOAD_BYTES = 16 * 1024;
/** The cookie that carries keyId (docs/product.md section 9: the name is fixed). */
export const KEY_ID_COOKIE = 'lw_keyId';
export const KEY_ID_HEADER = 'keyId';
/**
 * Largest MQTT packet the embedded broker takes from a signed-in gateway: a message of 500
 * readings, each with its alarms and params, stays under 2.5 MB; the rest is headroom.
 */
export const MQTT_MAX_PACKET_BYTES = 4 * 1024 * 1024;
/** Largest packet before sign-in: a CONNECT carries an id, a password and a small last will. */
export const MQTT_MAX_CONNECT_BYTES = 64 * 1024;
