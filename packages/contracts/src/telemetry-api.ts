import { endpoint } from './endpoint.ts';

/** What GET /healthz says: for operators and the tests (public, holds no machine data). */
export interface HealthReply {
  database: string;
  broker: 'connected' | 'disconnected';
  /** The ingest counters (received, accepted, duplicates, deadLetters, counterRebaselines…). */
  ingest: Record<string, number>;
  /** Gateways whose streams this instance writes (all of them, unless instances share). */
  gatewaysOwned: number;
  gatewayCommands: Record<string, number>;
}

export const telemetryApi = {
  health: endpoint<void, HealthReply>('GET', '/healthz'),
} as const;

/** The WebSocket paths (docs/design.md section 6). */
export const sockets = {
  /** The real-time socket of one machine. */
  realtime: {
    route: '/ws/realtime/:snCode',
    path: (snCode: string) => `/ws/realtime/${encodeURIComponent(snCode)}`,
  },
} as const;
