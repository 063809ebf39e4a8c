import fp from 'fastify-plugin';
import { publishAck } from '../foundation/broker/bus.ts';
import type { Core } from '../core/core.ts';
import { HOUR_MS } from '../foundation/shared/time.ts';
import { loadAlarmDefinitions } from './alarm-definitions.ts';
import { healthRoutes } from './health-routes.ts';
import { Ingestor } from './ingest.ts';
import { createMinutePartitions } from '../foundation/db/minute-partitions.ts';
import { AdvisoryLockOwnership } from './ownership.ts';
import { realtimeSocket } from './realtime-socket.ts';
import { createTelemetryRepository } from './repository.ts';

/** How soon an instance forgets what another committed (and sees that it fell behind). */
const WATERMARK_POLL_MS = 250;

declare module 'fastify' {
  interface FastifyInstance {
    ingestor: Ingestor;
  }
}

/** Ingest (bus → live state → database → ack), the health counters and the real-time socket. */
export const telemetryModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config, bus, live, registry } = core;
    const { db } = core.database;
    const repo = createTelemetryRepository(db, config.TIMEZONE);
    live.load(await repo.loadLiveSeed());
    const { gateways } = app;
    // Instances share gateways only through an external broker and PostgreSQL: then each
    // gateway's stream is written by the instance holding its lock (docs/architecture.md,
    // "Scale-out"); otherwise this instance writes everything it hears.
    const { session } = core.database;
    const shared = session && config.MQTT_URL;
    const ingestor = new Ingestor({
      repo,
      loadGatewaySeqs: () => gateways.loadGatewaySeqs(),
      live,
      devices: registry,
      publishAck: (gatewayId, ack) => publishAck(bus, gatewayId, ack),
      onUnknownMachine: (gatewayId, sn) => gateways.unboundMachine(gatewayId, sn),
      log: app.log,
      ...(shared && {
        ownership: new AdvisoryLockOwnership(session, config.DATABASE_SCHEMA, app.log),
        watermarkPollMs: WATERMARK_POLL_MS,
      }),
    });
    await ingestor.start();
    app.decorate('ingestor', ingestor);
    // Shutdown (app.ts): the bus has stopped intake; what was accepted is written and acked
    // before HTTP and sockets close.
    app.addHook('preClose', () => ingestor.stop());
    gateways.onGatewayOnline((gatewayId) => ingestor.requestAck(gatewayId));
    gateways.onGatewayAdded((gatewayId) => ingestor.registerGateway(gatewayId));
    // Intake starts once every domain is registered: a flush hook (alerts) added later than the
    // first flush would miss what that flush committed.
    app.addHook('onReady', async () => {
      const handle = (topic: string, payload: Buffer) => ingestor.handle(topic, payload);
      await bus.subscribe('telemetry', handle);
      await bus.subscribe('events', handle);
    });

    // Day partitions of rollup_minute made ahead and dropped past the retention, hourly, by one
    // instance (a run at start too: a new install gets today's partition at once).
    const partitions = createMinutePartitions(db);
    app.jobs.every({
      name: 'telemetry.minute-partitions',
      everyMs: HOUR_MS,
      run: async () => {
        const done = await partitions.maintain({
          now: Date.now(),
          retentionDays: config.MINUTE_RETENTION_DAYS,
        });
        if (done.made.length + done.dropped.length + done.deletedFromDefault > 0)
          app.log.info(done, 'minute partitions maintained');
      },
    });

    await app.register(healthRoutes, {
      ingestor,
      bus,
      commands: gateways.commands,
      databaseKind: core.database.kind,
    });
    const alarmDescriptions = await loadAlarmDefinitions(db);
    await app.register(async (scope) =>
      realtimeSocket(scope, {
        socketAuth: app.socketAuth,
        devices: app.devices,
        registry,
        live,
        timeZone: config.TIMEZONE,
        publicUrl: config.PUBLIC_URL,
        alarmDescriptions,
      }),
    );
  },
  { name: 'telemetry', dependencies: ['jobs', 'identity', 'gateways', 'devices'] },
);
