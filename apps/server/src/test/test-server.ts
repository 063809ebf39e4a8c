import { Kysely, PGliteDialect } from 'kysely';
import mqtt from 'mqtt';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp, type Linewatch } from '../app.ts';
import { loadConfig, type Config } from '../foundation/config/config.ts';
import { dumpMigratedTemplate, openDatabase, type Db } from '../foundation/db/database.ts';
import { PGliteProxy } from '../foundation/db/pglite-proxy.ts';
import type { Database } from '../foundation/db/schema.ts';

/** Set: the suite runs against this PostgreSQL (each server in its own schema). */
export const externalDatabaseUrl = process.env.DATABASE_URL || undefined;
/** Set: the suite runs against this broker instead of the embedded one (no broker ACL then). */
export const externalMqttUrl = process.env.MQTT_URL || undefined;

/** A SECRET that passes validation; the tests never run in demo mode. */
export const TEST_SECRET = 'linewatch-test-secret-0123456789';

const MIGRATIONS_DIR = fileURLToPath(new URL('../foundation/db/migrations/', import.meta.url));

/** PGlite's own version: a dump from another version may not load. */
const pgliteVersion = () => {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = join(dirname(dirname(entry)), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
};

const TEMPLATE_PREFIX = 'linewatch-template-';

/**
 * A migrated empty embedded database, dumped once per migration set and PGlite version and kept
 * in the OS temp directory: creating PGlite from nothing takes seconds, loading the dump a
 * fraction of that. The global setup makes it before the test files start; a file run on its
 * own makes it itself.
 */
export const migratedTemplate = async (): Promise<Uint8Array> => {
  const hash = createHash('sha256').update(pgliteVersion()).update('\0');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(MIGRATIONS_DIR, file)));
  }
  const name = `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 16)}.tar`;
  const file = join(tmpdir(), name);
  try {
    return new Uint8Array(readFileSync(file));
  } catch {
    const dump = await dumpMigratedTemplate();
    // Written aside, then renamed, so a parallel reader never sees half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
    // Templates of older migration sets are 40 MB each and never read again.
    for (const old of readdirSync(tmpdir())) {
      if (old.startsWith(TEMPLATE_PREFIX) && old.endsWith('.tar') && old !== name)
        rmSync(join(tmpdir(), old), { force: true });
    }
    return dump;
  }
};

let checkedDatabase: Promise<void> | undefined;
let checkedBroker: Promise<void> | undefined;

/** DATABASE_URL set but PostgreSQL down must fail the run loudly, never fall back to PGlite. */
export const checkDatabase = (url: string) =>
  (checkedDatabase ??= (async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (error) {
      throw new Error(
        `DATABASE_URL is set (${url}) but PostgreSQL is not reachable there: ${(error as Error).message}. ` +
          'Start PostgreSQL or unset DATABASE_URL to use the embedded database.',
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  })());

export const checkBroker = (url: string) =>
  (checkedBroker ??= (async () => {
    try {
      const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000 });
      await client.endAsync();
    } catch (error) {
      throw new Error(
        `MQTT_URL is set (${url}) but no MQTT broker answers there: ${(error as Error).message}. ` +
          'Start the broker (e.g. Mosquitto) or unset MQTT_URL to use the embedded broker.',
      );
    }
  })());

/** A fresh schema name for one server on the shared PostgreSQL. */
export const uniqueSchema = () => `lw_test_${randomBytes(6).toString('hex')}`;

export const dropSchema = async (url: string, schema: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
};

/**
 * Writes to the database before the server opens it, as a previous run would have left it. The
 * embedded database is seeded from the template and dumped again as the server's template.
 */
const seedBeforeStart = async (
  config: Config,
  template: Uint8Array | undefined,
  seed: (db: Db) => Promise<unknown>,
): Promise<Uint8Array | undefined> => {
  if (!template) {
    const database = await openDatabase(config);
    try {
      await seed(database.db);
    } finally {
      await database.close();
    }
    return undefined;
  }
  const proxy = new PGliteProxy({ load: template });
  try {
    await proxy.waitReady;
    await seed(new Kysely<Database>({ dialect: new PGliteDialect({ pglite: proxy as never }) }));
    return await proxy.dump();
  } finally {
    await proxy.close();
  }
};

export interface TestServer {
  baseUrl: string;
  /** ws://host:port, for /ws/... paths. */
  wsUrl: string;
  /** Where gateways connect (the embedded broker, or MQTT_URL). */
  mqttUrl: string;
  linewatch: Linewatch;
  close(): Promise<void>;
}

/**
 * The real server in this process on a random port: embedded broker on a random port and a fresh
 * embedded database cloned from the migrated template, or DATABASE_URL (own schema) and MQTT_URL
 * when those are set. `overrides` are environment variables as the server reads them;
 * `options.cacheMaxAgeMs` keeps the instance's caches that long (core/core.ts CoreOptions).
 */
export const startTestServer = async (
  overrides: Record<string, string> = {},
  options: {
    seed?: (db: Db) => Promise<unknown>;
    cacheMaxAgeMs?: number;
    /** Each line the server logs at warn and above (JSON), for tests of what it says. */
    log?: (line: string) => void;
  } = {},
): Promise<TestServer> => {
  if (externalDatabaseUrl) await checkDatabase(externalDatabaseUrl);
  if (externalMqttUrl) await checkBroker(externalMqttUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'lw-server-test-'));
  const schema = externalDatabaseUrl ? uniqueSchema() : undefined;
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: '0',
    SECRET: TEST_SECRET,
    LOG_LEVEL: options.log ? 'warn' : 'silent',
    // API only: which pages the built web app has is not this suite's business.
    WEB_DIST: join(dataDir, 'no-web-dist'),
    ...(externalDatabaseUrl && schema
      ? { DATABASE_URL: externalDatabaseUrl, DATABASE_SCHEMA: schema }
      : {}),
    ...(externalMqttUrl ? { MQTT_URL: externalMqttUrl } : {}),
    ...overrides,
  };
  let template = externalDatabaseUrl ? undefined : await migratedTemplate();
  const cleanupStorage = async () => {
    if (externalDatabaseUrl && schema) await dropSchema(externalDatabaseUrl, schema);
    rmSync(dataDir, { recursive: true, force: true });
  };
  let linewatch: Linewatch;
  try {
    if (options.seed) template = await seedBeforeStart(loadConfig(env), template, options.seed);
    linewatch = await buildApp(loadConfig(env), {
      checkReplies: true,
      ...(template ? { template } : {}),
      ...(options.cacheMaxAgeMs ? { cacheMaxAgeMs: options.cacheMaxAgeMs } : {}),
      ...(options.log ? { logStream: { write: options.log } } : { logger: false }),
    });
  } catch (error) {
    await cleanupStorage().catch(() => undefined);
    throw error;
  }
  try {
    await linewatch.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await linewatch.close();
    await cleanupStorage().catch(() => undefined);
    throw error;
  }
  const address = linewatch.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server has no address');
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    wsUrl: `ws://127.0.0.1:${address.port}`,
    mqttUrl: linewatch.mqttUrl,
    linewatch,
    close: () =>
      (closing ??= (async () => {
        try {
          await linewatch.close();
        } finally {
          await cleanupStorage();
        }
      })()),
  };
};
