import { ReplyCode } from '@linewatch/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SocketKind } from './auth.ts';
import { metricsAccess } from './metrics-access.ts';

export const METRICS_PATH = '/metrics';

/** Ingest's counters that the metrics mirror (telemetry/ingest.ts says what each counts). */
type IngestCounterName =
  | 'received'
  | 'accepted'
  | 'duplicates'
  | 'outOfOrder'
  | 'malformed'
  | 'unknownGateway'
  | 'unknownMachine'
  | 'lostByGateway'
  | 'flushFailures'
  | 'deadLetters'
  | 'counterRebaselines'
  | 'resumesSent'
  | 'heldNotices'
  | 'intakeHolds'
  | 'fencedWrites'
  | 'streamResyncs';

/** One committed flush of ingest. */
interface FlushReport {
  messages: number;
  durationMs: number;
  lagMs: number;
}

/** What the metrics read, handed over by app.ts: no domain is imported here. */
export interface MetricsOptions {
  /** METRICS_TOKEN; unset: loopback only (plugins/metrics-access.ts). */
  token: string | undefined;
  databaseKind: string;
  ingest: {
    readonly counters: Readonly<Record<IngestCounterName, number>>;
    onFlushed(listener: (report: FlushReport) => void): void;
  };
  /** Gateways whose streams this instance writes now. */
  ownedGateways: () => number;
  openSockets: () => Readonly<Record<SocketKind, number>>;
  outbox: {
    readonly delivered: ReadonlyMap<string, number>;
    readonly failures: ReadonlyMap<string, number>;
    readonly notReached: ReadonlyMap<string, number>;
    backlog(): Promise<{ channel: string; due: number; waiting: number }[]>;
  };
  brokerConnected: () => boolean;
}

/** Ingest's whole-message drops, by the `cause` label. */
const DROPPED_MESSAGES = {
  duplicate: 'duplicates',
  malformed: 'malformed',
  unknown_gateway: 'unknownGateway',
  lost_by_gateway: 'lostByGateway',
} as const satisfies Record<string, IngestCounterName>;

// A flush runs every 100 ms and normally takes a few; the lag adds the wait for the next flush and,
// while the database is away, the retries' backoff.
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The registry of one server: never prom-client's global one (tests run servers side by side). */
const buildRegistry = (options: MetricsOptions, log: FastifyInstance['log']) => {
  const { ingest, outbox } = options;
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // Ingest's counters are plain numbers it bumps on its hot path; they are copied at each scrape.
  const mirror = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  mirror(
    'linewatch_ingest_messages_received_total',
    'Telemetry and events messages that reached ingest.',
    () => ingest.counters.received,
  );
  mirror(
    'linewatch_ingest_messages_accepted_total',
    "Messages taken in the gateway's sequence (written by a later flush).",
    () => ingest.counters.accepted,
  );
  // dead_letters is counted over all time from the database at start: only this process's own
  // go into a counter, or N instances would each report the whole table.
  const deadLettersAtStart = ingest.counters.deadLetters;
  new Counter({
    name: 'linewatch_ingest_messages_dropped_total',
    help:
      'Messages whose data was not stored, by cause. lost_by_gateway: dropped by a gateway from its ' +
      'full buffer, never received; dead_letter: accepted, refused by the database, kept in dead_letters.',
    labelNames: ['cause'],
    registers,
    collect() {
      this.reset();
      for (const [cause, field] of Object.entries(DROPPED_MESSAGES))
        this.inc({ cause }, ingest.counters[field]);
      this.inc({ cause: 'dead_letter' }, ingest.counters.deadLetters - deadLettersAtStart);
    },
  });
  new Counter({
    name: 'linewatch_ingest_readings_dropped_total',
    help: 'Readings and events inside accepted messages that were dropped, by cause.',
    labelNames: ['cause'],
    registers,
    collect() {
      this.reset();
      this.inc({ cause: 'unknown_machine' }, ingest.counters.unknownMachine);
    },
  });
  mirror(
    'linewatch_ingest_counter_rebaselines_total',
    'Readings whose counters moved more than the machine could: no parts counted, new base.',
    () => ingest.counters.counterRebaselines,
  );
  mirror(
    'linewatch_ingest_messages_out_of_order_total',
    'Messages that arrived past a gap: held until it closes (the gateway is asked to resend it).',
    () => ingest.counters.outOfOrder,
  );
  mirror(
    'linewatch_ingest_resends_requested_total',
    'Acks that told a gateway where to resend from (a gap, a restart, a gateway taken over).',
    () => ingest.counters.resumesSent,
  );
  mirror(
    'linewatch_ingest_held_notices_total',
    'Notices that told a gateway its messages are received and still being written (wait).',
    () => ingest.counters.heldNotices,
  );
  mirror(
    'linewatch_ingest_intake_holds_total',
    "Times the server held gateways' PUBACKs until a slow flush (over 1 s) ended.",
    () => ingest.counters.intakeHolds,
  );
  mirror(
    'linewatch_ingest_fenced_writes_total',
    "Writes refused because another instance had moved the gateway's watermark (a hand-over).",
    () => ingest.counters.fencedWrites,
  );
  mirror(
    'linewatch_ingest_stream_resyncs_total',
    "Gateways whose machines' live state was reloaded: another instance wrote what this one missed.",
    () => ingest.counters.streamResyncs,
  );
  mirror(
    'linewatch_ingest_flush_failures_total',
    'Flushes that did not commit (retried; the messages wait, unacknowledged).',
    () => ingest.counters.flushFailures,
  );

  const committed = new Counter({
    name: 'linewatch_ingest_messages_committed_total',
    help: 'Accepted messages written to the database (then acknowledged to their gateways).',
    registers,
  });
  const flushDuration = new Histogram({
    name: 'linewatch_ingest_flush_duration_seconds',
    help: "A committed flush's write transaction.",
    buckets: FLUSH_BUCKETS,
    registers,
  });
  const lag = new Histogram({
    name: 'linewatch_ingest_lag_seconds',
    help: 'From the arrival of the oldest message a flush wrote to its commit.',
    buckets: LAG_BUCKETS,
    registers,
  });
  ingest.onFlushed((report) => {
    committed.inc(report.messages);
    flushDuration.observe(report.durationMs / 1000);
    lag.observe(report.lagMs / 1000);
  });

  new Gauge({
    name: 'linewatch_gateways_owned',
    help: 'Gateways whose telemetry this instance writes (one instance owns a gateway at a time).',
    registers,
    collect() {
      this.set(options.ownedGateways());
    },
  });
  new Gauge({
    name: 'linewatch_open_sockets',
    help: 'Signed-in WebSocket connections open now, by kind.',
    labelNames: ['kind'],
    registers,
    collect() {
      for (const [kind, open] of Object.entries(options.openSockets())) this.set({ kind }, open);
    },
  });

  new Gauge({
    name: 'linewatch_outbox_backlog',
    help:
      'Notifications not yet delivered, by channel; state due: to send now, waiting: backing ' +
      'off after a failed attempt. Shared by every instance on one database.',
    labelNames: ['channel', 'state'],
    registers,
    async collect() {
      this.reset();
      try {
        for (const { channel, due, waiting } of await outbox.backlog()) {
          this.set({ channel, state: 'due' }, due);
          this.set({ channel, state: 'waiting' }, waiting);
        }
      } catch (error) {
        // The rest of the scrape still says what it can (the database is what is wrong).
        log.warn({ err: error }, 'metrics: the outbox backlog could not be read');
      }
    },
  });
  const perChannel = (name: string, help: string, read: () => ReadonlyMap<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: ['channel'],
      registers,
      collect() {
        this.reset();
        for (const [channel, count] of read()) this.inc({ channel }, count);
      },
    });
  perChannel(
    'linewatch_outbox_deliveries_total',
    'Notifications this instance delivered, by channel.',
    () => outbox.delivered,
  );
  perChannel(
    'linewatch_outbox_delivery_failures_total',
    'Delivery attempts that failed, by channel (each is retried with backoff, up to 10 attempts).',
    () => outbox.failures,
  );
  perChannel(
    'linewatch_outbox_not_reached_total',
    'Notifications a service took but says did not reach their person (DingTalk: an invalid ' +
      'userid, flow control, a failed push), by channel; they are not retried.',
    () => outbox.notReached,
  );

  new Gauge({
    name: 'linewatch_broker_connected',
    help: "1 while the server's MQTT connection is up (always 1 with the embedded broker).",
    registers,
    collect() {
      this.set(options.brokerConnected() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'linewatch_server_info',
    help: 'Always 1; the labels say how this instance runs.',
    labelNames: ['database'],
    registers,
  }).set({ database: options.databaseKind }, 1);
  return registry;
};

/**
 * `GET /metrics` in the Prometheus text format, for the operator's scraper (docs/deploy.md). Not
 * behind the session: a bearer token (METRICS_TOKEN), or loopback only when none is set.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: MetricsOptions) => {
    const registry = buildRegistry(options, app.log);
    app.get(
      METRICS_PATH,
      {
        config: { public: true },
        onRequest: async (request, reply) => {
          const access = metricsAccess(options.token, {
            peer: request.socket.remoteAddress,
            headers: request.headers,
          });
          if (access === 'token-required') {
            void reply.header('www-authenticate', 'Bearer realm="linewatch-metrics"');
            throw new DomainError(
              ReplyCode.notSignedIn,
              '缺少或错误的令牌 / Authorization: Bearer <METRICS_TOKEN> required',
            );
          }
          if (access === 'local-only')
            throw new DomainError(
              ReplyCode.forbidden,
              '仅限本机访问 / METRICS_TOKEN is unset: loopback only, not through a proxy',
            );
        },
      },
      async (_request, reply) =>
        reply
          .header('content-type', registry.contentType)
          .header('cache-control', 'no-store')
          .send(await registry.metrics()),
    );
  },
  { name: 'metrics' },
);
