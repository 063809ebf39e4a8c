import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { emptyFigures } from '../shared/metrics.ts';
import { factories } from '../../test/factories.ts';
import { openTestDb, type TestDb } from '../../test/test-db.ts';
import { createMinutePartitions } from './minute-partitions.ts';
import { createTelemetryRepository, emptyBatch } from '../../telemetry/repository.ts';

const TIME_ZONE = 'Asia/Shanghai';
const MINUTE = 60_000;
const DAY = 86_400_000;
const RETENTION_DAYS = 40;
/** Noon UTC of a fixed day: the job's "now". */
const NOW = Date.UTC(2026, 10, 30, 12);
const utcDay = (daysAgo: number) => Date.UTC(2026, 10, 30) - daysAgo * DAY;
const name = (daysAgo: number) =>
  `rollup_minute_p${new Date(utcDay(daysAgo)).toISOString().slice(0, 10).replaceAll('-', '')}`;

let testDb: TestDb;
let db: Db;
let sns: string[];
beforeAll(async () => {
  testDb = await openTestDb();
  db = testDb.db;
  const make = factories(db);
  const line = await make.createLine();
  sns = [await make.createDevice({ line }), await make.createDevice({ line })];
});
afterAll(() => testDb?.close());

/** Minutes written as ingest writes them (hours and days with them), from `from` on. */
const writeMinutes = async (from: number, count: number) => {
  const batch = emptyBatch();
  for (const sn of sns)
    for (let i = 0; i < count; i++) {
      const minute = from + i * MINUTE;
      const figures = { ...emptyFigures(), produced: 1 + (i % 7), ok: 1, runningMs: MINUTE };
      batch.minutes.set(`${sn}|${minute}`, { sn, minute, figures });
    }
  await createTelemetryRepository(db, TIME_ZONE).writeBatch(batch);
};

const partitionOf = async (minute: number) =>
  (
    await sql<{ partition: string }>`SELECT tableoid::regclass::text AS partition
      FROM rollup_minute WHERE sn_code = ${sns[0]} AND minute = ${new Date(minute)}`.execute(db)
  ).rows[0]?.partition;

/** The bytes of these tables with their indexes (0 for one that is gone). */
const bytesOf = async (names: string[]) =>
  (
    await sql<{ bytes: number }>`
      SELECT coalesce(sum(pg_total_relation_size(to_regclass(n))), 0)::float8 AS bytes
      FROM unnest(${names}::text[]) AS n`.execute(db)
  ).rows[0]!.bytes;

describe('the minute partitions job', () => {
  it('writes a minute of any date: no flush waits for a partition (the default takes it)', async () => {
    const past = Date.UTC(2015, 0, 1, 3);
    const future = Date.UTC(2049, 0, 1, 3);
    await writeMinutes(past, 1);
    await writeMinutes(future, 1);
    expect(await partitionOf(past)).toBe('rollup_minute_default');
    expect(await partitionOf(future)).toBe('rollup_minute_default');
    const done = await createMinutePartitions(db).maintain({ now: NOW, retentionDays: 40 });
    // The past one is deleted (past the retention); the far future one waits in the default.
    expect(done.deletedFromDefault).toBe(sns.length);
    expect(await partitionOf(future)).toBe('rollup_minute_default');
    expect(done.made).toEqual([0, -1, -2, -3].map(name));
  });

  it('moves what the default caught into days of its own, and drops whole days past the retention: rows and bytes gone, hours and days kept', async () => {
    const partitions = createMinutePartitions(db);
    // Three days of minutes, 58 to 60 days ago, then a day two days ago; no partition for any yet.
    const old = [60, 59, 58].map(utcDay);
    for (const day of old) await writeMinutes(day + 6 * 3_600_000, 600);
    await writeMinutes(utcDay(2) + 3_600_000, 60);
    expect(await partitionOf(old[0]! + 6 * 3_600_000)).toBe('rollup_minute_default');

    // The job as it ran 58 days ago: those days were within the retention then.
    const then = await partitions.maintain({ now: NOW - 58 * DAY, retentionDays: RETENTION_DAYS });
    expect(then.made).toEqual([60, 59, 58, 57, 56, 55].map(name));
    expect(await partitionOf(old[0]! + 6 * 3_600_000)).toBe(name(60));
    expect(await partitionOf(utcDay(2) + 3_600_000)).toBe('rollup_minute_default');

    // The hours and days of every machine, as stored.
    const views = async () => ({
      hours: await db.selectFrom('rollup_hour').selectAll().orderBy(['sn_code', 'hour']).execute(),
      days: await db.selectFrom('rollup_day').selectAll().orderBy(['sn_code', 'day']).execute(),
    });
    const before = await views();
    // 600 minutes from 06:00 UTC: 10 hours and one factory day a machine, each of three days.
    const inOldDays = (t: Date | string) =>
      new Date(t) >= new Date(utcDay(60)) && new Date(t) < new Date(utcDay(40));
    expect(before.hours.filter((h) => inOldDays(h.hour))).toHaveLength(3 * 10 * 2);
    expect(before.days.filter((d) => inOldDays(d.day))).toHaveLength(3 * 2);
    const oldNames = [60, 59, 58, 57, 56, 55].map(name);
    const bytesBefore = await bytesOf(oldNames);
    expect(bytesBefore).toBeGreaterThan(0);
    const minutesOld = () =>
      db
        .selectFrom('rollup_minute')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('minute', '<', new Date(utcDay(40)))
        .executeTakeFirstOrThrow()
        .then((r) => r.n);
    expect(await minutesOld()).toBe(3 * 600 * sns.length);

    const now = await partitions.maintain({ now: NOW, retentionDays: RETENTION_DAYS });
    expect(now.dropped).toEqual(oldNames);
    expect(now.made).toEqual([name(2)]);
    expect(await partitionOf(utcDay(2) + 3_600_000)).toBe(name(2));
    expect(await minutesOld()).toBe(0);
    expect(await bytesOf(oldNames)).toBe(0);
    expect([...(await partitions.list()).values()].sort()).toEqual(
      [2, 0, -1, -2, -3].map(name).sort(),
    );
    // Hours and days stay (the data-truth test reads the views of a day without its minutes).
    expect(await views()).toEqual(before);
  });
});
