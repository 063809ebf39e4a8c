import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { migrate } from './migrate.ts';
import type { Database } from './schema.ts';

/*
 * Migration 027 back-fills covered_minutes (the minutes PPM covers: those with running time or
 * parts observed, shared/metrics.ts) on the hour and day rows written before it. A database
 * migrated to 026, rows as they were then, then 027. PGlite in process: the back-fill is plain SQL.
 */
describe('migration 027: covered minutes back-filled', () => {
  let db: Db;
  beforeAll(async () => {
    db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: await PGlite.create() }) });
    await sql`SET TIME ZONE 'UTC'`.execute(db);
    // Shanghai: the factory's day 2026-11-21 begins at 2026-11-20 16:00 UTC.
    await migrate(db, 'Asia/Shanghai', '027');
    const line = await db
      .insertInto('production_lines')
      .values({ name: 'L' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('devices')
      .values({ sn_code: 'M-1', device_name: 'm', line_id: line.id })
      .execute();
  }, 60_000);
  afterAll(() => db?.destroy());

  it('counts an hour’s covered minutes from its minutes, else from its running time; days sum their hours', async () => {
    const minute = (at: string, row: Record<string, number>) => ({
      sn_code: 'M-1',
      minute: at,
      ...row,
    });
    // 08:00 UTC (16:00 in Shanghai, day 11-20) keeps its minutes: a start (15 s running, 9
    // parts), parts across a silence only (not observed), parts while idle, and an idle minute.
    await db
      .insertInto('rollup_minute')
      .values([
        minute('2026-11-20T08:00:00Z', { produced: 9, running_ms: 15_000 }),
        minute('2026-11-20T08:01:00Z', { produced: 5, gap_produced: 5 }),
        minute('2026-11-20T08:02:00Z', { produced: 2, idle_ms: 60_000 }),
        minute('2026-11-20T08:03:00Z', { idle_ms: 60_000 }),
      ])
      .execute();
    const hour = (at: string, row: Record<string, number>) => ({
      sn_code: 'M-1',
      hour: at,
      ...row,
    });
    await db
      .insertInto('rollup_hour')
      .values([
        // Its own minutes decide: 2, though its running time would say 1.
        hour('2026-11-20T08:00:00Z', { produced: 16, gap_produced: 5, running_ms: 15_000 }),
        // Past the minutes' retention: running time in whole minutes, rounded up.
        hour('2026-11-20T09:00:00Z', { produced: 300, running_ms: 125_000 }),
        // Never more than the hour's 60, whatever the running time says.
        hour('2026-11-20T10:00:00Z', { produced: 4000, running_ms: 3_700_000 }),
        // Day 11-21 in Shanghai. Parts seen with no running time: one minute at least.
        hour('2026-11-20T16:00:00Z', { produced: 4 }),
        // Parts across a silence only, no running time: nothing covered.
        hour('2026-11-20T17:00:00Z', { produced: 6, gap_produced: 6 }),
      ])
      .execute();
    await db
      .insertInto('rollup_day')
      .values([
        { sn_code: 'M-1', day: '2026-11-20', produced: 4316 },
        { sn_code: 'M-1', day: '2026-11-21', produced: 10 },
        // A day total with no hours (the demo's older days): nothing to count.
        { sn_code: 'M-1', day: '2026-11-19', produced: 84_712 },
      ])
      .execute();

    await migrate(db, 'Asia/Shanghai');

    const hours = await sql<{ hour: Date; covered_minutes: number }>`
      SELECT hour, covered_minutes FROM rollup_hour ORDER BY hour`.execute(db);
    expect(hours.rows.map((h) => [h.hour.toISOString(), h.covered_minutes])).toEqual([
      ['2026-11-20T08:00:00.000Z', 2],
      ['2026-11-20T09:00:00.000Z', 3],
      ['2026-11-20T10:00:00.000Z', 60],
      ['2026-11-20T16:00:00.000Z', 1],
      ['2026-11-20T17:00:00.000Z', 0],
    ]);
    const days = await sql<{ day: string; covered_minutes: number }>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, covered_minutes FROM rollup_day ORDER BY day`.execute(
      db,
    );
    expect(days.rows).toEqual([
      { day: '2026-11-19', covered_minutes: 0 },
      { day: '2026-11-20', covered_minutes: 65 },
      { day: '2026-11-21', covered_minutes: 1 },
    ]);
  });
});
