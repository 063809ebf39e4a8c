import {
  Kysely,
  PGliteDialect,
  PostgresDialect,
  sql,
  type DatabaseConnection,
  type Dialect,
  type Driver,
} from 'kysely';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config/config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';
import { PgListener, type NoticeHandler } from './pg-listener.ts';
import { PGliteProxy } from './pglite-proxy.ts';
import type { Database } from './schema.ts';

// int8 (count, bigserial, sums) as numbers, as PGlite returns them; our totals stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));

export type Db = Kysely<Database>;

export interface OpenDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs `handler` with the payload when any process commits a `pg_notify(channel, payload)`,
   * and with `undefined` after a lost listening connection is back (db/notices.ts types both
   * ends). Only PostgreSQL is shared by several processes; on the embedded database this
   * process is the only writer, and the handler is never called.
   */
  listen: (channel: string, handler: NoticeHandler) => Promise<void>;
  /**
   * A new connection of its own (PostgreSQL only; null on the embedded database): for what lives
   * as long as a session, such as advisory locks that must go when the process dies.
   */
  session: (() => pg.Client) | null;
  close: () => Promise<void>;
}

export interface OpenOptions {
  /** Start the embedded database from a dumped data directory instead of DATA_DIR (tests). */
  template?: Uint8Array;
}

/** Longest a close waits for queries in flight (a query that hangs must not hang shutdown). */
const DRAIN_TIMEOUT_MS = 3000;

/**
 * Counts the queries in flight (from the moment they ask for a connection) so that a close lets
 * every query that started before it finish and refuses the ones that start after it: nothing
 * reaches a closed database (a gateway-presence write queued behind a flush used to run after
 * the close). For a single-connection dialect (PGlite) the wait for the connection is done here
 * rather than in Kysely, where it could not be counted.
 */
class QueryGate {
  #inFlight = 0;
  #closing = false;
  #idle: (() => void) | null = null;
  /** Waiters for the single connection; null when it is free. */
  #queue: (() => void)[] | null = null;

  wrap(dialect: Dialect): Dialect {
    const adapter = dialect.createAdapter();
    const single = !adapter.supportsMultipleConnections;
    return {
      createAdapter: () =>
        new Proxy(adapter, {
          get: (target, property) =>
            property === 'supportsMultipleConnections' ? true : bound(target, property),
        }),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createDriver: () => this.#driver(dialect.createDriver(), single),
    };
  }

  #driver(driver: Driver, single: boolean): Driver {
    return new Proxy(driver, {
      get: (target, property) => {
        if (property === 'acquireConnection')
          return async (): Promise<DatabaseConnection> => {
            if (this.#closing) throw new Error('database is closing: query refused');
            this.#inFlight++;
            try {
              if (single) await this.#lock();
              try {
                return await target.acquireConnection();
              } catch (error) {
                if (single) this.#unlock();
                throw error;
              }
            } catch (error) {
              this.#leave();
              throw error;
            }
          };
        if (property === 'releaseConnection')
          return async (connection: DatabaseConnection) => {
            try {
              await target.releaseConnection(connection);
            } finally {
              if (single) this.#unlock();
              this.#leave();
            }
          };
        return bound(target, property);
      },
    });
  }

  #lock(): Promise<void> {
    if (this.#queue === null) {
      this.#queue = [];
      return Promise.resolve();
    }
    const queue = this.#queue;
    return new Promise((resolve) => queue.push(resolve));
  }

  #unlock() {
    const next = this.#queue?.shift();
    if (next) next();
    else this.#queue = null;
  }

  #leave() {
    this.#inFlight--;
    if (this.#inFlight === 0) this.#idle?.();
  }

  /** Refuses new queries and resolves once those in flight are done (or after the timeout). */
  async drain(): Promise<void> {
    this.#closing = true;
    if (this.#inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#idle = resolve;
      timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    });
    clearTimeout(timer);
  }
}

const bound = (target: object, property: string | symbol): unknown => {
  const value: unknown = Reflect.get(target, property);
  return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
};

/**
 * initdb grows PGlite's WASM heap to ~600 MB, which a process does not give back (not even when
 * the worker thread that ran it ends): the cluster is created by a short-lived process and the
 * server's worker starts on the result (first start 775 -> ~215 MB RSS, docs/benchmarks.md).
 */
const initCluster = async (dataDir: string) => {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(pglite)}).PGlite.create({ dataDir: process.argv[1] }).then((db) => db.close())`;
  const child = spawn(process.execPath, ['-e', script, dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`creating the embedded database failed (${code}): ${stderr}`);
};

export const openDatabase = async (
  config: Config,
  options: OpenOptions = {},
  onListenError: (error: Error) => void = () => undefined,
): Promise<OpenDatabase> => {
  if (config.DATABASE_URL) {
    const schema = config.DATABASE_SCHEMA;
    const admin = new pg.Client({ connectionString: config.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await admin.end();
    }
    const connection = {
      connectionString: config.DATABASE_URL,
      options: `-c search_path="${schema}" -c timezone=UTC`,
    };
    const pool = new pg.Pool({ ...connection, max: 10 });
    const gate = new QueryGate();
    const db = new Kysely<Database>({ dialect: gate.wrap(new PostgresDialect({ pool })) });
    await migrate(db, config.TIMEZONE);
    // Channels are global to the database: the schema keeps test schemas (and tenants) apart.
    const listener = new PgListener(connection, onListenError);
    return {
      db,
      kind: 'postgres',
      listen: (channel, handler) => listener.listen(`${schema}.${channel}`, handler),
      // Keep-alives, so a peer that vanished is noticed; a query that hangs is given up.
      session: () => new pg.Client({ ...connection, keepAlive: true, query_timeout: 5000 }),
      close: async () => {
        await listener.close();
        await gate.drain();
        await db.destroy();
      },
    };
  }

  const dataDir = join(config.DATA_DIR, 'pglite');
  const lock = options.template ? null : lockDataDir(config.DATA_DIR);
  if (!options.template && !existsSync(join(dataDir, 'PG_VERSION'))) await initCluster(dataDir);
  const proxy = new PGliteProxy(options.template ? { load: options.template } : { dataDir });
  try {
    await proxy.waitReady;
    const gate = new QueryGate();
    const db = new Kysely<Database>({
      dialect: gate.wrap(new PGliteDialect({ pglite: proxy as never })),
    });
    await sql`SET TIME ZONE 'UTC'`.execute(db);
    await migrate(db, config.TIMEZONE);
    return {
      db,
      kind: 'pglite',
      listen: async () => undefined,
      session: null,
      close: async () => {
        try {
          await gate.drain();
          await proxy.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    await proxy.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
};

/** Migrated empty database, dumped; tests start each server from it instead of running initdb. */
export const dumpMigratedTemplate = async (): Promise<Uint8Array> => {
  const proxy = new PGliteProxy({});
  await proxy.waitReady;
  try {
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: proxy as never }) });
    // Empty: no row for a migration to place in a time zone.
    await migrate(db, 'UTC');
    return await proxy.dump();
  } finally {
    await proxy.close();
  }
};
