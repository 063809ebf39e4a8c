import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { migrate } from './migrate.ts';
import { PGliteProxy } from './pglite-proxy.ts';
import type { Database } from './schema.ts';

// int8 (count, bigserial, sums) as numbers, as PGlite returns them; our totals stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));

export type Db = Kysely<Database>;

export interface OpenDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
}

export interface OpenOptions {
  /** Start the embedded database from a dumped data directory instead of DATA_DIR (tests). */
  template?: Uint8Array;
}

export const openDatabase = async (
  config: Config,
  options: OpenOptions = {},
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
    const pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      max: 10,
      options: `-c search_path="${schema}" -c timezone=UTC`,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await migrate(db);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  const dataDir = join(config.DATA_DIR, 'pglite');
  const lock = options.template ? null : lockDataDir(config.DATA_DIR);
  const proxy = new PGliteProxy(options.template ? { load: options.template } : { dataDir });
  try {
    await proxy.waitReady;
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: proxy as never }) });
    await sql`SET TIME ZONE 'UTC'`.execute(db);
    await migrate(db);
    return {
      db,
      kind: 'pglite',
      close: async () => {
        try {
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
    await migrate(db);
    return await proxy.dump();
  } finally {
    await proxy.close();
  }
};
