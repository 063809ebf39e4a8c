import { sql } from 'kysely';
import type { Db } from './database.ts';

const DAY_MS = 86_400_000;
/**
 * Day partitions made ahead of today: readings still land in a day of their own if the job
 * (hourly) does not run for a few days.
 */
const AHEAD_DAYS = 3;
/**
 * How long the job waits for a lock on rollup_minute before giving up until the next hour:
 * dropping a partition needs the table to itself, and every query behind it would wait too.
 */
const LOCK_TIMEOUT = '5s';
const PARTITION = /^rollup_minute_p(\d{4})(\d{2})(\d{2})$/;

const utcDayStart = (ts: number) => Math.floor(ts / DAY_MS) * DAY_MS;
/** The partition of the UTC day starting at `dayStart` (migration 025 names them so too). */
export const partitionName = (dayStart: number) =>
  `rollup_minute_p${new Date(dayStart).toISOString().slice(0, 10).replaceAll('-', '')}`;
const instant = (ts: number) => new Date(ts).toISOString();

export interface MaintenanceResult {
  made: string[];
  dropped: string[];
  /** Minutes past the retention deleted from the default partition. */
  deletedFromDefault: number;
}

/**
 * rollup_minute's day partitions (migration 025): made ahead, made for the days the DEFAULT
 * partition caught (its rows moved into them), and dropped whole once older than the retention.
 * Minute rows are never deleted from a day partition; only stray ones in the default are.
 */
export const createMinutePartitions = (db: Db) => {
  /** The day partitions, by the UTC day they hold (its start, epoch ms). */
  const list = async (): Promise<Map<number, string>> => {
    const { rows } = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'rollup_minute'::regclass`.execute(db);
    const days = new Map<number, string>();
    for (const { name } of rows) {
      const m = PARTITION.exec(name);
      if (m) days.set(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])), name);
    }
    return days;
  };

  /**
   * The partition of one UTC day, with the rows the default partition holds of it: built apart
   * and attached, which takes rollup_minute only in SHARE UPDATE EXCLUSIVE mode (flushes and
   * reads go on), while the default is held for the move.
   */
  const make = async (dayStart: number) => {
    const name = partitionName(dayStart);
    const [from, to] = [instant(dayStart), instant(dayStart + DAY_MS)];
    await db.transaction().execute(async (tx) => {
      await sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`).execute(tx);
      // First, so that no flush adds a minute of that day to the default between the move and
      // the attach, which would then refuse.
      await sql`LOCK TABLE rollup_minute_default IN ACCESS EXCLUSIVE MODE`.execute(tx);
      await sql`CREATE TABLE ${sql.id(name)} (LIKE rollup_minute INCLUDING DEFAULTS)`.execute(tx);
      await sql`
        WITH moved AS (
          DELETE FROM rollup_minute_default WHERE minute >= ${from} AND minute < ${to} RETURNING *)
        INSERT INTO ${sql.id(name)} SELECT * FROM moved`.execute(tx);
      await sql`ALTER TABLE rollup_minute ATTACH PARTITION ${sql.id(name)}
        FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`.execute(tx);
    });
    return name;
  };

  const drop = async (name: string) => {
    await db.transaction().execute(async (tx) => {
      await sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`).execute(tx);
      await sql`DROP TABLE ${sql.id(name)}`.execute(tx);
    });
  };

  /** Makes the missing partitions of the UTC days [from, to) touches; the names it made. */
  const ensure = async (from: number, to: number) => {
    const existing = await list();
    const made: string[] = [];
    for (let day = utcDayStart(from); day < to; day += DAY_MS)
      if (!existing.has(day)) made.push(await make(day));
    return made;
  };

  return {
    list,
    ensure,

    /**
     * One run of the job: the days from today to AHEAD_DAYS ahead and every day within the
     * retention that the default partition caught get their partition; whole days older than
     * `retentionDays` are dropped, and the default's minutes older than that deleted.
     */
    async maintain({
      now,
      retentionDays,
    }: {
      now: number;
      retentionDays: number;
    }): Promise<MaintenanceResult> {
      const today = utcDayStart(now);
      const keepFrom = utcDayStart(now - retentionDays * DAY_MS);
      const aheadEnd = today + (AHEAD_DAYS + 1) * DAY_MS;
      const existing = await list();
      const caught = await sql<{ day: number }>`
        SELECT DISTINCT floor(extract(epoch FROM minute) / 86400)::int AS day
        FROM rollup_minute_default
        WHERE minute >= ${instant(keepFrom)} AND minute < ${instant(aheadEnd)}`.execute(db);
      const wanted = new Set(caught.rows.map((r) => r.day * DAY_MS));
      for (let day = today; day < aheadEnd; day += DAY_MS) wanted.add(day);
      const made: string[] = [];
      for (const day of [...wanted].sort((a, b) => a - b))
        if (!existing.has(day)) made.push(await make(day));
      const dropped: string[] = [];
      for (const [day, name] of [...existing].sort(([a], [b]) => a - b))
        if (day < keepFrom) {
          await drop(name);
          dropped.push(name);
        }
      const deleted = await sql`
        DELETE FROM rollup_minute_default WHERE minute < ${instant(keepFrom)}`.execute(db);
      return { made, dropped, deletedFromDefault: Number(deleted.numAffectedRows ?? 0) };
    },
  };
};
