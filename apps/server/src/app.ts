import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker/embedded-broker.ts';
import { publishAck, type Bus } from './broker/bus.ts';
import { connectBus } from './broker/mqtt-bus.ts';
import type { Config } from './config.ts';
import { openDatabase, type OpenDatabase, type OpenOptions } from './db/database.ts';
import { seedDemo } from './demo/seed.ts';
import { DeviceRegistry } from './devices/device-registry.ts';
import { createDevicesRepository } from './devices/repository.ts';
import { devicesRoutes } from './devices/routes.ts';
import { createDevicesService } from './devices/service.ts';
import { GatewayCommands } from './gateways/commands.ts';
import { createGatewayVerifier } from './gateways/credentials.ts';
import { GatewayPresence } from './gateways/presence.ts';
import { createGatewaysRepository } from './gateways/repository.ts';
import { clientErrorHandler, registerErrorHandling } from './http/error-handler.ts';
import { createIdentityRepository } from './identity/repository.ts';
import { identityRoutes } from './identity/routes.ts';
import { createIdentityService } from './identity/service.ts';
import { authPlugin, createSocketAuth } from './plugins/auth.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { loggerOptions } from './plugins/log-redaction.ts';
import { loadAlarmDefinitions } from './telemetry/alarm-definitions.ts';
import { healthRoutes } from './telemetry/health-routes.ts';
import { Ingestor } from './telemetry/ingest.ts';
import { LiveState } from './telemetry/live-state.ts';
import { realtimeSocket, websocketOptions } from './telemetry/realtime-socket.ts';
import { createTelemetryRepository } from './telemetry/repository.ts';

export interface BuildOptions extends OpenOptions {
  logger?: boolean;
}

export interface Linewatch {
  app: FastifyInstance;
  database: OpenDatabase;
  broker: EmbeddedBroker | null;
  bus: Bus;
  ingestor: Ingestor;
  registry: DeviceRegistry;
  presence: GatewayPresence;
  commands: GatewayCommands;
  /** Where gateways connect: MQTT_URL, or the embedded broker. */
  mqttUrl: string;
  /** Graceful stop: intake, flush, sockets, broker, database (checkpoint). */
  close(): Promise<void>;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Builds the whole server in its plugin order; the caller listens. */
export const buildApp = async (config: Config, options: BuildOptions = {}): Promise<Linewatch> => {
  const trusted = config.TRUST_PROXY;
  const app = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    // A hop count as a function: Fastify's types take no number (its runtime does the same).
    trustProxy:
      typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : trusted,
    clientErrorHandler,
    bodyLimit: 1 << 20,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = await openDatabase(config, options);
  const cleanup: (() => Promise<unknown>)[] = [() => database.close()];
  try {
    const { db } = database;
    if (config.DEMO) await seedDemo(db, config, app.log);

    const registry = new DeviceRegistry(db);
    await registry.reload();
    const telemetryRepo = createTelemetryRepository(db, config.TIMEZONE);
    const live = new LiveState(config.TIMEZONE);
    live.load(await telemetryRepo.loadLiveSeed());

    const gatewaysRepo = createGatewaysRepository(db);
    const ingestor = new Ingestor({
      repo: telemetryRepo,
      loadGatewaySeqs: () => gatewaysRepo.loadGatewaySeqs(),
      live,
      devices: registry,
      publishAck: (gw, seq) => publishAck(bus, gw, seq),
      log: app.log,
    });
    const presence = new GatewayPresence(gatewaysRepo, app.log, (gw) => ingestor.requestAck(gw));
    await presence.load();

    let broker: EmbeddedBroker | null = null;
    if (!config.MQTT_URL) {
      broker = await startEmbeddedBroker({
        port: config.MQTT_PORT,
        host: config.MQTT_HOST,
        verifyGateway: createGatewayVerifier(db),
      });
      const embedded = broker;
      cleanup.unshift(() => embedded.close());
    }
    const mqttUrl = config.MQTT_URL ?? broker!.url;

    await ingestor.start();
    const bus: Bus = broker
      ? broker.inProcessBus()
      : await connectBus({
          url: mqttUrl,
          username: config.MQTT_USERNAME,
          password: config.MQTT_PASSWORD,
          log: app.log,
        });
    cleanup.unshift(() => bus.close());
    const commands = new GatewayCommands(bus, app.log);
    cleanup.unshift(async () => commands.close());
    const fromGateway = (topic: string, payload: Buffer) => {
      presence.heard(topic);
      ingestor.handle(topic, payload);
    };
    await bus.subscribe('state', presence.handleState);
    await bus.subscribe('telemetry', fromGateway);
    await bus.subscribe('events', fromGateway);
    await bus.subscribe('cmd/reply', (topic, payload) => {
      presence.heard(topic);
      commands.handleReply(topic, payload);
    });

    const identity = createIdentityService(
      createIdentityRepository(db),
      config.SESSION_TTL_HOURS * 3_600_000,
    );
    await app.register(jobsPlugin, { db });
    app.jobs.every({
      name: 'identity.purge-expired-sessions',
      everyMs: 3_600_000,
      run: async () => void (await identity.purgeExpiredSessions()),
    });
    const devices = createDevicesService({
      repo: createDevicesRepository(db),
      live,
      isGatewayOnline: (gw) => presence.isOnline(gw),
      allSns: () => registry.sns(),
      timeZone: config.TIMEZONE,
    });

    const socketAuth = createSocketAuth(identity);
    const alarmDescriptions = await loadAlarmDefinitions(db);
    cleanup.unshift(async () => socketAuth.close());
    await app.register(cookie);
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    await app.register(websocket, websocketOptions);
    const webDist = config.WEB_DIST ?? DEFAULT_WEB_DIST;
    const appShell = existsSync(webDist);
    if (appShell) {
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        // The build writes .br and .gz beside each file; phones get the smallest they accept.
        preCompressed: true,
        // File names under assets/ carry a content hash; index.html must be checked every time.
        cacheControl: false,
        setHeaders: (res, path) => {
          const hashed = /[\\/]assets[\\/]/.test(path);
          res.setHeader(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    registerErrorHandling(app, { appShell });
    await app.register(authPlugin, { identity });
    await app.register(identityRoutes, {
      identity,
      secureCookie: config.PUBLIC_URL?.startsWith('https:') ?? false,
    });
    await app.register(devicesRoutes, { devices });
    await app.register(healthRoutes, { ingestor, bus, commands, databaseKind: database.kind });
    await app.register(async (scope) =>
      realtimeSocket(scope, {
        socketAuth,
        devices,
        registry,
        live,
        timeZone: config.TIMEZONE,
        publicUrl: config.PUBLIC_URL,
        alarmDescriptions,
      }),
    );

    let closing: Promise<void> | null = null;
    return {
      app,
      database,
      broker,
      bus,
      ingestor,
      registry,
      presence,
      commands,
      mqttUrl,
      close: () =>
        (closing ??= (async () => {
          // Dependency order: no new messages, ingest flushed, HTTP and sockets closed, bus,
          // broker, then the database, whose close lets the queries in flight (a presence
          // write) finish and refuses later ones (db/database.ts).
          await bus.stopIntake();
          await ingestor.stop();
          await app.close();
          for (const step of cleanup)
            await step().catch((error: unknown) =>
              app.log.error({ err: error }, 'shutdown step failed'),
            );
        })()),
    };
  } catch (error) {
    for (const step of cleanup) await step().catch(() => undefined);
    await app.close();
    throw error;
  }
};
