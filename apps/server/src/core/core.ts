import type { FastifyBaseLogger } from 'fastify';
import { startEmbeddedBroker, type EmbeddedBroker } from '../foundation/broker/embedded-broker.ts';
import type { Bus } from '../foundation/broker/bus.ts';
import { connectBus } from '../foundation/broker/mqtt-bus.ts';
import type { Config } from '../foundation/config/config.ts';
import {
  openDatabase,
  type Db,
  type OpenDatabase,
  type OpenOptions,
} from '../foundation/db/database.ts';
import { AreaStatus } from './area-status.ts';
import { DeviceRegistry } from './device-registry.ts';
import { createGatewayVerifier } from './gateway-credentials.ts';
import { createPresenceStore, GatewayPresence } from './gateway-presence.ts';
import { LiveState } from './live-state.ts';

/**
 * What every module shares: the database, the machines by SN, the live state of every machine,
 * which gateways are online, and the broker with the bus on it. The modules build their own
 * repositories and services on it.
 */
export interface CoreOptions extends OpenOptions {
  /**
   * Tests: how long the caches of one instance keep what they read (follow marks, sessions, past
   * days' sums; each has its own default), raised so that only a notice can refresh them.
   */
  cacheMaxAgeMs?: number;
}

export interface Core {
  config: Config;
  database: OpenDatabase;
  registry: DeviceRegistry;
  /**
   * Which gateways are online: the gateways module feeds it from the bus, the devices module
   * reads it (neither asks the other).
   */
  presence: GatewayPresence;
  /** Empty here; the telemetry module loads it from the database before anything reads it. */
  live: LiveState;
  /** Each map area's machines by live status, kept as statuses change (the map's summary). */
  areaStatus: AreaStatus;
  broker: EmbeddedBroker | null;
  bus: Bus;
  /** Where gateways connect: MQTT_URL, or the embedded broker. */
  mqttUrl: string;
  /** CoreOptions.cacheMaxAgeMs: undefined outside tests. */
  cacheMaxAgeMs: number | undefined;
  /** Bus, broker, then the database (last: its close lets the queries in flight finish). */
  close(): Promise<void>;
}

/**
 * `seed`: runs on the opened database before anything reads it (the demo's rows, app.ts): the
 * composition above hands it down, the core imports no domain.
 */
export const buildCore = async (
  config: Config,
  options: CoreOptions,
  log: FastifyBaseLogger,
  seed?: (db: Db) => Promise<void>,
): Promise<Core> => {
  const database = await openDatabase(config, options, (error) =>
    log.warn(
      { err: error },
      'the database connection that hears other instances broke; reconnecting',
    ),
  );
  const steps: (() => Promise<unknown>)[] = [() => database.close()];
  const close = async () => {
    for (const step of steps)
      await step().catch((error: unknown) => log.error({ err: error }, 'shutdown step failed'));
  };
  try {
    const { db } = database;
    if (seed) await seed(db);
    const registry = new DeviceRegistry(db);
    await registry.reload();
    // Machines changed by another instance or the admin CLI reach this one's registry too.
    await registry.follow(database, (error) =>
      log.error({ err: error }, 'reloading the machines after a change elsewhere failed'),
    );
    const presence = new GatewayPresence(createPresenceStore(db), log);
    await presence.load();

    let broker: EmbeddedBroker | null = null;
    if (!config.MQTT_URL) {
      broker = await startEmbeddedBroker({
        port: config.MQTT_PORT,
        host: config.MQTT_HOST,
        verifyGateway: createGatewayVerifier(db),
        log,
      });
      const embedded = broker;
      steps.unshift(() => embedded.close());
    }
    const mqttUrl = config.MQTT_URL ?? broker!.url;
    // Subscribing is the modules' business: no message reaches the server before they do.
    const bus: Bus = broker
      ? broker.inProcessBus()
      : await connectBus({
          url: mqttUrl,
          username: config.MQTT_USERNAME,
          password: config.MQTT_PASSWORD,
          log,
        });
    steps.unshift(() => bus.close());
    const live = new LiveState(config.TIMEZONE);
    return {
      config,
      database,
      registry,
      presence,
      live,
      areaStatus: new AreaStatus(registry, live),
      broker,
      bus,
      mqttUrl,
      cacheMaxAgeMs: options.cacheMaxAgeMs,
      close,
    };
  } catch (error) {
    for (const step of steps) await step().catch(() => undefined);
    throw error;
  }
};
