import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, externalDatabaseUrl, uniqueSchema } from '../../test/test-server.ts';
import type { Db } from './database.ts';
import { migrate, statementsOf } from './migrate.ts';
import type { Database } from './schema.ts';

describe('statementsOf', () => {
  it('splits at a semicolon ending a line, never inside a dollar-quoted body', () => {
    const text = [
      '-- a comment; with a semicolon',
      'CREATE TABLE a (x int);',
      'DO $$',
      'BEGIN',
      '  PERFORM 1;',
      '  PERFORM 2;',
      'END',
      '$$;',
      'INSERT INTO a VALUES (1);  ',
      '-- only a comment;',
    ].join('\n');
    expect(statementsOf(text).map((s) => s.trim())).toEqual([
      '-- a comment; with a semicolon\nCREATE TABLE a (x int)',
      'DO $$\nBEGIN\n  PERFORM 1;\n  PERFORM 2;\nEND\n$$',
      'INSERT INTO a VALUES (1)',
    ]);
  });
});

/** A database of its own, not migrated: PGlite in process, or a schema on DATABASE_URL. */
const emptyDatabase = async (): Promise<{ db: Db; close: () => Promise<void> }> => {
  if (externalDatabaseUrl) {
    const schema = uniqueSchema();
    const pool = new pg.Pool({
      connectionString: externalDatabaseUrl,
      options: `-c search_path="${schema}" -c timezone=UTC`,
      max: 2,
    });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      close: async () => {
        await db.destroy();
        await dropSchema(externalDatabaseUrl!, schema);
      },
    };
  }
  const pglite = await PGlite.create();
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  await sql`SET TIME ZONE 'UTC'`.execute(db);
  return { db, close: () => db.destroy() };
};

describe('migration 025: rollup_minute by day, rollup_hour', () => {
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  beforeAll(async () => {
    database = await emptyDatabase();
  }, 60_000);
  afterAll(() => database?.close());

  it('moves every minute into a day partition and sums the factory hours, in its zone', async () => {
    const { db } = database;
    await migrate(db, 'Asia/Kolkata', '025');
    const line = await db
      .insertInto('production_lines')
      .values({ name: 'L' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('devices')
      .values({ sn_code: 'M-1', device_name: 'm', line_id: line.id })
      .execute();
    // Two UTC days; India's hours begin at :30 UTC, so 10:00–10:59 UTC makes two of its hours.
    const minutes = ['2026-11-20T10:00:00Z', '2026-11-20T10:29:00Z', '2026-11-20T10:30:00Z'];
    await db
      .insertInto('rollup_minute')
      .values([
        ...minutes.map((m, i) => ({
          sn_code: 'M-1',
          minute: m,
          produced: 10 + i,
          ok: 9,
          ng: 1,
          first_pass_ok: 8,
          gap_produced: i === 1 ? 5 : 0,
          running_ms: 60_000,
        })),
        { sn_code: 'M-1', minute: '2026-11-21T23:59:00Z', produced: 7, idle_ms: 60_000 },
      ])
      .execute();

    await migrate(db, 'Asia/Kolkata');

    const placed = await sql<{ partition: string; n: number }>`
      SELECT tableoid::regclass::text AS partition, count(*)::int AS n
      FROM rollup_minute GROUP BY 1 ORDER BY 1`.execute(db);
    expect(placed.rows).toEqual([
      { partition: 'rollup_minute_p20261120', n: 3 },
      { partition: 'rollup_minute_p20261121', n: 1 },
    ]);
    const hours = await db
      .selectFrom('rollup_hour')
      .select(['hour', 'produced', 'gap_produced', 'max_minute_produced', 'running_ms', 'idle_ms'])
      .orderBy('hour')
      .execute();
    expect(hours.map((h) => ({ ...h, hour: h.hour.toISOString() }))).toEqual([
      // 10 + 11 parts, of which 5 across a silence: the best observed minute is 10.
      {
        hour: '2026-11-20T09:30:00.000Z',
        produced: 21,
        gap_produced: 5,
        max_minute_produced: 10,
        running_ms: 120_000,
        idle_ms: 0,
      },
      {
        hour: '2026-11-20T10:30:00.000Z',
        produced: 12,
        gap_produced: 0,
        max_minute_produced: 12,
        running_ms: 60_000,
        idle_ms: 0,
      },
      {
        hour: '2026-11-21T23:30:00.000Z',
        produced: 7,
        gap_produced: 0,
        max_minute_produced: 7,
        running_ms: 0,
        idle_ms: 60_000,
      },
    ]);
    // The primary key is still (sn_code, minute): an upsert adds to the row.
    await sql`INSERT INTO rollup_minute (sn_code, minute, produced) VALUES ('M-1', '2026-11-20T10:00:00Z', 1)
      ON CONFLICT (sn_code, minute) DO UPDATE SET produced = rollup_minute.produced + excluded.produced`.execute(
      db,
    );
    const row = await db
      .selectFrom('rollup_minute')
      .select('produced')
      .where('minute', '=', new Date('2026-11-20T10:00:00Z'))
      .executeTakeFirstOrThrow();
    expect(row.produced).toBe(11);
  });
});
