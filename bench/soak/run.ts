/*
 * Soak benchmark (issue 22, storage that stays fast for years): a PostgreSQL schema filled with
 * --machines machines × --days days of minute rows (86.4 million at 1,000 × 60), made in SQL a
 * day at a time, with the hour and day roll-ups summed from them and status changes; then
 * bench/api and bench/ingest run against it as they are, and the partition job runs with a
 * retention of --retention days: the rows and bytes it frees. Prints the sizing (rows and bytes
 * per machine per day) and every figure with the machine's load beside it.
 *
 *   DATABASE_URL=postgres://… npm run soak -w @linewatch/bench -- [--machines 1000] [--days 60]
 *     [--retention 32] [--seconds 10] [--ingest-seconds 30]
 *     [--keep]   leave the schema (default: dropped)
 *
 * Every day but the last is built as a bulk load would (the partition filled, then attached:
 * its primary key built sorted); the last, yesterday, is written into an attached partition in
 * time order, machine after machine each minute, as ingest writes: its index is the one a real
 * day has, and the sizing reads it.
 */
import { sql } from 'kysely';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../apps/server/src/foundation/config/config.ts';
import { openDatabase, type Db } from '../../apps/server/src/foundation/db/database.ts';
import {
  createMinutePartitions,
  partitionName,
} from '../../apps/server/src/foundation/db/minute-partitions.ts';
import { seedMachines, TIMEZONE } from '../support/seed.ts';

const { values: args } = parseArgs({
  options: {
    machines: { type: 'string', default: '1000' },
    days: { type: 'string', default: '60' },
    retention: { type: 'string', default: '32' },
    /** Each API scenario's measured seconds (bench/api --seconds). */
    seconds: { type: 'string', default: '10' },
    /** Each ingest run's measured seconds (bench/ingest --seconds). */
    'ingest-seconds': { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const MACHINES = Number(args.machines);
const DAYS = Number(args.days);
const RETENTION = Number(args.retention);
const DAY_MS = 86_400_000;
if (!process.env.DATABASE_URL) throw new Error('the soak runs on PostgreSQL: set DATABASE_URL');

const schema = `soak_${process.pid}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lw-soak-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO: '0',
  SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  TIMEZONE,
  DATABASE_SCHEMA: schema,
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (what: string, extra: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ at: new Date().toISOString(), load: load(), what, ...extra }));
const seconds = (from: number) => Math.round((Date.now() - from) / 100) / 10;

/**
 * One minute's figures of machine `i` at minute `g` of the day, as SQL: 80 % running at about
 * 60 parts a minute, 10 % idle (half waiting upstream), 10 % in fault, in a two-hour cycle.
 */
const MINUTE_COLUMNS = sql`sn_code, minute, produced, ok, ng, first_pass_ok, gap_produced,
  running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms`;
const minuteRows = (dayStart: number, timeOrder: boolean) => sql`
  SELECT sn_code, ${new Date(dayStart)}::timestamptz + g * interval '1 minute',
    produced, produced - ng, ng, greatest(0, produced - ng - (g % 7 = 0)::int), 0,
    CASE WHEN phase < 96 THEN 60000 ELSE 0 END,
    CASE WHEN phase >= 96 AND phase < 108 THEN 60000 ELSE 0 END,
    CASE WHEN phase >= 108 THEN 60000 ELSE 0 END,
    CASE WHEN phase >= 96 AND phase < 102 THEN 60000 ELSE 0 END,
    CASE WHEN phase >= 102 AND phase < 108 THEN 60000 ELSE 0 END
  FROM (
    SELECT d.sn_code, g, p.phase,
      CASE WHEN p.phase < 96 THEN 50 + (g * 7 + p.i) % 21 ELSE 0 END AS produced,
      CASE WHEN p.phase < 96 AND (g + p.i) % 10 = 0 THEN 1 ELSE 0 END AS ng
    FROM devices d
    CROSS JOIN generate_series(0, 1439) AS g
    CROSS JOIN LATERAL (SELECT substr(d.sn_code, 3)::int AS i,
      (g + substr(d.sn_code, 3)::int * 37) % 120 AS phase) AS p
    WHERE d.sn_code LIKE 'B-%'
  ) AS m
  ORDER BY ${timeOrder ? sql`g, sn_code` : sql`sn_code, g`}`;

/** A whole UTC day of minutes, its factory hours and its status changes. */
const fillDay = async (db: Db, dayStart: number, asWritten: boolean) => {
  const name = partitionName(dayStart);
  const [from, to] = [new Date(dayStart).toISOString(), new Date(dayStart + DAY_MS).toISOString()];
  if (asWritten) {
    await createMinutePartitions(db).ensure(dayStart, dayStart + DAY_MS);
    await sql`INSERT INTO rollup_minute (${MINUTE_COLUMNS}) ${minuteRows(dayStart, true)}`.execute(
      db,
    );
  } else {
    await db.transaction().execute(async (tx) => {
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(tx);
      await sql`CREATE TABLE ${sql.id(name)} (LIKE rollup_minute INCLUDING DEFAULTS)`.execute(tx);
      await sql`INSERT INTO ${sql.id(name)} (${MINUTE_COLUMNS}) ${minuteRows(dayStart, false)}`.execute(
        tx,
      );
      await sql`ALTER TABLE rollup_minute ATTACH PARTITION ${sql.id(name)}
        FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`.execute(tx);
    });
  }
  await sql`
    INSERT INTO rollup_hour (sn_code, hour, produced, ok, ng, first_pass_ok, gap_produced,
      max_minute_produced, running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms)
    SELECT sn_code, date_trunc('hour', minute, ${TIMEZONE}), sum(produced), sum(ok), sum(ng),
      sum(first_pass_ok), sum(gap_produced), max(produced - gap_produced), sum(running_ms),
      sum(idle_ms), sum(fault_ms), sum(idle_upstream_ms), sum(idle_downstream_ms)
    FROM rollup_minute WHERE minute >= ${from} AND minute < ${to}
    GROUP BY 1, 2`.execute(db);
  // A status change where the cycle turns: running → idle (upstream) → fault → running.
  await sql`
    INSERT INTO status_changes (sn_code, ts, status, idle_reason)
    SELECT d.sn_code, ${from}::timestamptz + g * interval '1 minute',
      CASE p.phase WHEN 0 THEN 2 WHEN 96 THEN 1 ELSE 3 END,
      CASE p.phase WHEN 96 THEN 'upstream' END
    FROM devices d CROSS JOIN generate_series(0, 1439) AS g
    CROSS JOIN LATERAL (SELECT (g + substr(d.sn_code, 3)::int * 37) % 120 AS phase) AS p
    WHERE d.sn_code LIKE 'B-%' AND p.phase IN (0, 96, 108)`.execute(db);
};

interface Size {
  rows: number;
  heap: number;
  indexes: number;
}
/** Rows, table bytes (with TOAST) and index bytes of tables by name. */
const sizeOf = async (db: Db, tables: string[]): Promise<Size> => {
  const { rows } = await sql<Size>`
    SELECT coalesce(sum(pg_table_size(c.oid)), 0)::float8 AS heap,
      coalesce(sum(pg_indexes_size(c.oid)), 0)::float8 AS indexes, 0 AS rows
    FROM unnest(${tables}::text[]) AS t(name) JOIN pg_class c ON c.oid = to_regclass(t.name)`.execute(
    db,
  );
  let count = 0;
  for (const t of tables) {
    const r = await sql<{ n: number }>`SELECT count(*)::float8 AS n FROM ${sql.id(t)}`.execute(db);
    count += r.rows[0]!.n;
  }
  return { ...rows[0]!, rows: count };
};
const minutePartitions = async (db: Db) =>
  [...(await createMinutePartitions(db).list()).values()].concat('rollup_minute_default');

/** Per machine per day: rows, bytes without indexes, bytes with them. */
const perMachineDay = (size: Size, machineDays: number) => ({
  rowsPerMachineDay: Math.round((size.rows / machineDays) * 10) / 10,
  bytesPerRow: Math.round(size.heap / size.rows),
  bytesPerRowWithIndexes: Math.round((size.heap + size.indexes) / size.rows),
  kbPerMachineDay: Math.round(size.heap / machineDays / 102.4) / 10,
  kbPerMachineDayWithIndexes: Math.round((size.heap + size.indexes) / machineDays / 102.4) / 10,
});

/** One of the benchmarks beside this one, run as it is; its output passes through. */
const runBench = async (script: string, benchArgs: string[]) => {
  const path = resolve(fileURLToPath(new URL('..', import.meta.url)), script);
  log(`${script} ${benchArgs.join(' ')}: start`);
  const child = spawn(process.execPath, ['--import', 'tsx', path, ...benchArgs], {
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    stdio: 'inherit',
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  log(`${script}: end`, { exit: code });
};

const { db, close } = await openDatabase(loadConfig(env));
try {
  const started = Date.now();
  log('soak', { schema, machines: MACHINES, days: DAYS, retention: RETENTION });
  await seedMachines(db, MACHINES);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  for (let d = DAYS; d >= 1; d--) {
    const dayStarted = Date.now();
    await fillDay(db, today - d * DAY_MS, d === 1);
    log('day filled', { day: partitionName(today - d * DAY_MS), seconds: seconds(dayStarted) });
  }
  await sql`
    INSERT INTO rollup_day (sn_code, day, produced, ok, ng, first_pass_ok, gap_produced,
      max_minute_produced, running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms)
    SELECT sn_code, (hour AT TIME ZONE ${TIMEZONE})::date, sum(produced), sum(ok), sum(ng),
      sum(first_pass_ok), sum(gap_produced), max(max_minute_produced), sum(running_ms),
      sum(idle_ms), sum(fault_ms), sum(idle_upstream_ms), sum(idle_downstream_ms)
    FROM rollup_hour GROUP BY 1, 2`.execute(db);
  await sql`ANALYZE`.execute(db);
  log('filled', { seconds: seconds(started) });

  const machineDays = MACHINES * DAYS;
  const sizing = {
    minuteDayAsWritten: perMachineDay(await sizeOf(db, [partitionName(today - DAY_MS)]), MACHINES),
    minuteDayBulk: perMachineDay(await sizeOf(db, [partitionName(today - 2 * DAY_MS)]), MACHINES),
    hour: perMachineDay(await sizeOf(db, ['rollup_hour']), machineDays),
    day: perMachineDay(await sizeOf(db, ['rollup_day']), machineDays),
    statusChanges: perMachineDay(await sizeOf(db, ['status_changes']), machineDays),
  };
  log('sizing', sizing);

  await runBench('api/run.ts', [
    '--schema',
    schema,
    '--machines',
    String(MACHINES),
    '--seconds',
    args.seconds,
  ]);
  // Batched, a window of 200 messages (20,000 readings) a gateway: with the default 5,000 the
  // server on PostgreSQL cannot acknowledge the backlog within the bench's drain.
  for (const perMessage of ['1', '100'])
    await runBench('ingest/run.ts', [
      '--schema',
      schema,
      '--per-message',
      perMessage,
      '--seconds',
      args['ingest-seconds'],
      ...(perMessage === '100' ? ['--window', '200'] : []),
    ]);

  // Retention: what the hourly job does with MINUTE_RETENTION_DAYS=RETENTION.
  const hoursBefore = await sizeOf(db, ['rollup_hour', 'rollup_day']);
  const before = await sizeOf(db, await minutePartitions(db));
  const jobStarted = Date.now();
  const done = await createMinutePartitions(db).maintain({
    now: Date.now(),
    retentionDays: RETENTION,
  });
  const jobSeconds = seconds(jobStarted);
  const after = await sizeOf(db, await minutePartitions(db));
  const hoursAfter = await sizeOf(db, ['rollup_hour', 'rollup_day']);
  log('retention', {
    retentionDays: RETENTION,
    jobSeconds,
    dropped: done.dropped.length,
    made: done.made.length,
    minuteRows: { before: before.rows, after: after.rows },
    minuteBytes: { before: before.heap + before.indexes, after: after.heap + after.indexes },
    freedBytes: before.heap + before.indexes - (after.heap + after.indexes),
    hourAndDayRows: { before: hoursBefore.rows, after: hoursAfter.rows },
  });
} finally {
  if (!args.keep) await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
  await close();
  rmSync(dataDir, { recursive: true, force: true });
  log(args.keep ? `kept schema ${schema}` : `dropped schema ${schema}`);
}
