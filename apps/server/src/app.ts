import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { fileURLToPath } from 'node:url';
import type { EmbeddedBroker } from './foundation/broker/embedded-broker.ts';
import type { Bus } from './foundation/broker/bus.ts';
import type { Config } from './foundation/config/config.ts';
import { alertsModule } from './alerts/module.ts';
import { casesModule } from './cases/module.ts';
import { buildCore, type CoreOptions } from './core/core.ts';
import { seedDemo } from './demo/seed.ts';
import type { OpenDatabase } from './foundation/db/database.ts';
import type { DeviceRegistry } from './core/device-registry.ts';
import { devicesModule } from './devices/module.ts';
import { facaModule } from './faca/module.ts';
import type { GatewayCommands } from './gateways/commands.ts';
import { gatewaysModule } from './gateways/module.ts';
import { historyModule } from './history/module.ts';
import type { GatewayPresence } from './core/gateway-presence.ts';
import { applicationsModule } from './applications/module.ts';
import { clientErrorHandler } from './foundation/http/error-handler.ts';
import { replySerializerCompiler } from './foundation/http/reply-serializer.ts';
import { identityModule } from './identity/module.ts';
import { linesModule } from './lines/module.ts';
import { machinesModule } from './machines/module.ts';
import { websocketOptions } from './plugins/auth.ts';
import { notificationsModule } from './notifications/module.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { loggerOptions } from './plugins/log-redaction.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { mediaModule } from './media/module.ts';
import { securityPlugin } from './plugins/security.ts';
import { statisticsModule } from './statistics/module.ts';
import { subscriptionsModule } from './subscriptions/module.ts';
import { visibilityPlugin } from './plugins/visibility.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import type { Ingestor } from './telemetry/ingest.ts';
import type { LiveState } from './core/live-state.ts';
import { telemetryModule } from './telemetry/module.ts';
import { usersModule } from './users/module.ts';

export interface BuildOptions extends CoreOptions {
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read what the server says). */
  logStream?: { write(line: string): void };
  /** Tests: every reply is also checked against its contract by zod (reply-serializer.ts). */
  checkReplies?: boolean;
}

export interface Linewatch {
  app: FastifyInstance;
  database: OpenDatabase;
  broker: EmbeddedBroker | null;
  bus: Bus;
  ingestor: Ingestor;
  registry: DeviceRegistry;
  live: LiveState;
  presence: GatewayPresence;
  commands: GatewayCommands;
  /** Where gateways connect: MQTT_URL, or the embedded broker. */
  mqttUrl: string;
  /** Graceful stop: intake, flush, sockets, broker, database (checkpoint). */
  close(): Promise<void>;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * Builds the whole server: the core (core/core.ts), the cross-cutting plugins, then one module per
 * domain in dependency order. Returns it ready (every bus subscription made); the caller listens.
 */
export const buildApp = async (config: Config, options: BuildOptions = {}): Promise<Linewatch> => {
  const trusted = config.TRUST_PROXY;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            ...loggerOptions(config.LOG_LEVEL),
            ...(options.logStream && { stream: options.logStream }),
          },
    // A hop count as a function: Fastify's types take no number (its runtime does the same).
    trustProxy:
      typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted,
    clientErrorHandler,
    bodyLimit: 1 << 20,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler({ check: options.checkReplies }));

  // The demo's rows go in before the core reads the machines and gateways.
  const core = await buildCore(
    config,
    options,
    app.log,
    config.DEMO ? (db) => seedDemo(db, config, app.log) : undefined,
  );
  try {
    await app.register(cookie);
    await app.register(securityPlugin, { publicUrl: config.PUBLIC_URL });
    await app.register(websocket, websocketOptions);
    await app.register(webAppPlugin, { root: config.WEB_DIST ?? DEFAULT_WEB_DIST });
    await app.register(jobsPlugin, { db: core.database.db });

    await app.register(identityModule, { core });
    await app.register(notificationsModule, { core });
    await app.register(linesModule, { core });
    await app.register(machinesModule, { core });
    await app.register(devicesModule, { core });
    const { devices } = app;
    await app.register(visibilityPlugin, {
      checkMachine: (user, sn) => devices.checkMachine(user, sn),
    });
    await app.register(gatewaysModule, { core });
    await app.register(telemetryModule, { core });
    await app.register(historyModule, { core });
    await app.register(mediaModule, { core });
    await app.register(facaModule, { core });
    await app.register(statisticsModule, { core });
    await app.register(subscriptionsModule, { core });
    await app.register(casesModule, { core });
    await app.register(alertsModule, { core });
    await app.register(applicationsModule, { core });
    await app.register(usersModule, { core });
    await app.register(metricsPlugin, {
      token: config.METRICS_TOKEN,
      databaseKind: core.database.kind,
      ingest: app.ingestor,
      // No ownership yet: this instance writes every registered gateway's stream.
      ownedGateways: () => app.ingestor.ownedGateways,
      openSockets: () => app.socketAuth.openSockets(),
      outbox: app.outbox,
      brokerConnected: () => core.bus.connected,
    });
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    await core.close();
    throw error;
  }

  let closing: Promise<void> | null = null;
  return {
    app,
    database: core.database,
    broker: core.broker,
    bus: core.bus,
    ingestor: app.ingestor,
    registry: core.registry,
    live: core.live,
    presence: core.presence,
    commands: app.gateways.commands,
    mqttUrl: core.mqttUrl,
    close: () =>
      (closing ??= (async () => {
        // Dependency order: no new messages; ingest flushed (telemetry's preClose), HTTP,
        // sockets, jobs and gateway commands closed (app.close); then the bus, the broker and
        // the database, whose close lets the queries in flight (a presence write) finish and
        // refuses later ones (db/database.ts).
        await core.bus.stopIntake();
        await app
          .close()
          .catch((error: unknown) => app.log.error({ err: error }, 'shutdown step failed'));
        await core.close();
      })()),
  };
};
