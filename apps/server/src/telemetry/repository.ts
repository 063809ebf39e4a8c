import { isCoveredMinute, observedProduced } from '@linewatch/contracts/rules/figures';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import {
  ADDED_COLUMNS,
  addFigures,
  COVERED_MINUTE_SQL,
  figureColumns,
  figuresFromRow,
  type Figures,
} from '../foundation/shared/metrics.ts';
import { dayOf, HOUR_MS, hourStartOf } from '../foundation/shared/time.ts';
import { minuteOf, type MachineSnapshot } from '../core/reading-effects.ts';
import { RECENT_MINUTES_MS, type LiveSeed, type StoredMinute } from '../core/live-state.ts';

export interface AlarmEdge {
  sn: string;
  code: string;
  ts: number;
  active: boolean;
}

/**
 * A gateway's watermark moves from `expected` (what this instance knows is committed) to `seq`
 * only if no one else moved it meanwhile: a fence, so that two instances that both believe they
 * own a gateway (a hand-over in progress) can never apply one message twice.
 */
export interface WatermarkMove {
  expected: number;
  seq: number;
}

/** The watermark of these gateways was not where this instance expected: nothing was written. */
export class FenceError extends Error {
  constructor(readonly gatewayIds: string[]) {
    super(`gateway watermark moved by another writer: ${gatewayIds.join(', ')}`);
  }
}

/** Everything accepted since the last flush; written in one transaction with the ack watermarks. */
export interface Batch {
  gatewaySeq: Map<string, WatermarkMove>;
  minutes: Map<string, { sn: string; minute: number; figures: Figures }>;
  statusChanges: { sn: string; ts: number; status: number; idleReason: string | null }[];
  alarmEdges: AlarmEdge[];
  operations: { sn: string; ts: number; comment: string; setValue: string; user: string }[];
  snapshots: Map<string, MachineSnapshot>;
}

export const emptyBatch = (): Batch => ({
  gatewaySeq: new Map(),
  minutes: new Map(),
  statusChanges: [],
  alarmEdges: [],
  operations: [],
  snapshots: new Map(),
});

const CHUNK = 1000;
const chunks = <T>(items: T[]) => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/**
 * The live state of every machine, or of `sns` only, as the database holds it (read by `db`, which
 * may be a transaction: a stream's state is read with its watermark in one snapshot).
 */
const loadLiveSeed = async (
  db: Db,
  timeZone: string,
  now: number,
  sns?: readonly string[],
): Promise<LiveSeed> => {
  if (sns?.length === 0)
    return { snapshots: new Map(), today: new Map(), hourly: [], recentMinutes: [] };
  const only = sns ? [...sns] : null;
  let liveQuery = db.selectFrom('device_live').selectAll();
  if (only) liveQuery = liveQuery.where('sn_code', 'in', only);
  const live = await liveQuery.execute();
  let todayQuery = db.selectFrom('rollup_day').selectAll().where('day', '=', dayOf(now, timeZone));
  if (only) todayQuery = todayQuery.where('sn_code', 'in', only);
  const today = await todayQuery.execute();
  // Every machine's SN as an array, which the primary key is searched by: `hour > …` or
  // `minute >= …` alone has no index, and would read rollup_hour (kept for good) or today's
  // partition of rollup_minute whole (126 ms against 8 ms for 1,000 machines' 2,000 hours).
  const ofMachines = only
    ? sql<boolean>`sn_code = any(${only}::text[])`
    : sql<boolean>`sn_code = any(array(select sn_code from devices))`;
  const hourly = await db
    .selectFrom('rollup_hour')
    .select(['sn_code', 'hour', 'produced'])
    .where('hour', '>', new Date(now - 24 * HOUR_MS))
    .where(ofMachines)
    .execute();
  const recent = await db
    .selectFrom('rollup_minute')
    .select([
      'sn_code',
      'minute',
      sql<number>`produced - gap_produced`.as('observed'),
      sql<boolean>`${sql.raw(COVERED_MINUTE_SQL)}`.as('covered'),
    ])
    .where('minute', '>=', new Date(minuteOf(now) - RECENT_MINUTES_MS))
    .where(ofMachines)
    .execute();
  return {
    snapshots: new Map(
      live.map((r) => [
        r.sn_code,
        {
          ts: r.ts.getTime(),
          status: r.status as 1 | 2 | 3,
          idleReason: r.idle_reason as MachineSnapshot['idleReason'],
          produced: r.produced,
          ok: r.ok,
          ng: r.ng,
          firstPassOk: r.first_pass_ok,
          activeAlarms: r.active_alarms,
        },
      ]),
    ),
    today: new Map(today.map((r): [string, Figures] => [r.sn_code, figuresFromRow(r)])),
    hourly: hourly.map((r) => ({ sn: r.sn_code, hour: r.hour.getTime(), produced: r.produced })),
    recentMinutes: recent.map((r) => ({
      sn: r.sn_code,
      minute: r.minute.getTime(),
      observed: r.observed,
      covered: r.covered,
    })),
  };
};

interface PeriodSums {
  sn: string;
  figures: Figures;
}

/**
 * Adds figures to rollup_hour or rollup_day rows (one per machine and period), keeping the best
 * minute: the highest observed minute total now stored (max PPM), and counting the minutes the
 * batch covered first (average PPM's denominator).
 */
const addToRollup = async (
  tx: Db,
  table: 'rollup_hour' | 'rollup_day',
  key: 'hour' | 'day',
  periods: (PeriodSums & { period: Date | string })[],
) => {
  for (const chunk of chunks(periods)) {
    await tx
      .insertInto(table)
      .values(
        chunk.map((p) => ({
          sn_code: p.sn,
          [key]: p.period,
          ...figureColumns(p.figures),
          max_minute_produced: p.figures.maxMinuteProduced,
          covered_minutes: p.figures.coveredMinutes,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['sn_code', key] as never).doUpdateSet((eb) => ({
          ...Object.fromEntries(
            ADDED_COLUMNS.map((c) => [
              c,
              eb(sql.ref(`${table}.${c}`), '+', eb.ref(`excluded.${c}`)),
            ]),
          ),
          max_minute_produced: sql`greatest(${sql.ref(`${table}.max_minute_produced`)}, excluded.max_minute_produced)`,
          covered_minutes: sql`${sql.ref(`${table}.covered_minutes`)} + excluded.covered_minutes`,
        })),
      )
      .execute();
  }
};

/** Moves each gateway's watermark, fenced (see WatermarkMove); throws FenceError if any moved. */
const moveWatermarks = async (tx: Db, moves: ReadonlyMap<string, WatermarkMove>) => {
  if (moves.size === 0) return;
  const ids = [...moves.keys()].sort();
  // Rows locked in one order by every writer: two instances in a hand-over cannot deadlock.
  const rows = await tx
    .selectFrom('gateways')
    .select(['id', 'last_seq'])
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const current = new Map(rows.map((r) => [r.id, r.last_seq]));
  const moved = ids.filter((id) => current.get(id) !== moves.get(id)!.expected);
  if (moved.length > 0) throw new FenceError(moved);
  for (const chunk of chunks(ids)) {
    await sql`UPDATE gateways AS g SET last_seq = v.seq
      FROM (VALUES ${sql.join(chunk.map((id) => sql`(${id}::text, ${moves.get(id)!.seq}::bigint)`))}) AS v(id, seq)
      WHERE g.id = v.id`.execute(tx);
  }
};

export const createTelemetryRepository = (db: Db, timeZone: string) => ({
  loadLiveSeed: (now = Date.now()): Promise<LiveSeed> => loadLiveSeed(db, timeZone, now),

  /** Every gateway's committed watermark. */
  async loadWatermarks(): Promise<Map<string, number>> {
    const rows = await db.selectFrom('gateways').select(['id', 'last_seq']).execute();
    return new Map(rows.map((r) => [r.id, r.last_seq]));
  },

  /**
   * A gateway's committed watermark and, when it is past `known` (another instance committed what
   * this one never saw), the live state of its machines as of that watermark: one snapshot.
   * Null when the gateway is gone.
   */
  async loadStream(
    gatewayId: string,
    sns: readonly string[],
    known: number,
    now = Date.now(),
  ): Promise<{ seq: number; seed: LiveSeed | null } | null> {
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const row = await tx
          .selectFrom('gateways')
          .select('last_seq')
          .where('id', '=', gatewayId)
          .executeTakeFirst();
        if (!row) return null;
        const seed = row.last_seq > known ? await loadLiveSeed(tx, timeZone, now, sns) : null;
        return { seq: row.last_seq, seed };
      });
  },

  /** Minutes as stored now (their observed totals): what a late reading made of today's peak. */
  async storedMinutes(keys: readonly { sn: string; minute: number }[]): Promise<StoredMinute[]> {
    if (keys.length === 0) return [];
    const rows = await db
      .selectFrom('rollup_minute')
      .select(['sn_code', 'minute', sql<number>`produced - gap_produced`.as('observed')])
      .where((eb) =>
        eb.or(
          keys.map((k) =>
            eb.and([eb('sn_code', '=', k.sn), eb('minute', '=', new Date(k.minute))]),
          ),
        ),
      )
      .execute();
    return rows.map((r) => ({ sn: r.sn_code, minute: r.minute.getTime(), observed: r.observed }));
  },

  /**
   * Writes a batch in one transaction, and last in it `alsoInTransaction` (what other domains
   * derive from the batch, ingest's flush hooks: it commits with the readings that caused it or
   * not at all). Returns each written minute's stored observed count (its total after the write,
   * not the batch's part), so the live state can say what the database says about max PPM however
   * late a reading arrived.
   */
  async writeBatch(
    batch: Batch,
    alsoInTransaction?: (tx: Db) => Promise<void>,
  ): Promise<StoredMinute[]> {
    const storedMinutes: StoredMinute[] = [];
    await db.transaction().execute(async (tx) => {
      storedMinutes.length = 0;
      // First: a writer that lost the gateway to another instance stops before writing a row.
      await moveWatermarks(tx, batch.gatewaySeq);
      const minuteRows = [...batch.minutes.values()].map((m) => ({
        sn_code: m.sn,
        minute: new Date(m.minute),
        ...figureColumns(m.figures),
      }));
      // Per factory hour and day: the figures added, with the highest observed minute total now
      // stored (max PPM).
      const hours = new Map<string, PeriodSums & { period: Date }>();
      const days = new Map<string, PeriodSums & { period: string }>();
      for (const chunk of chunks(minuteRows)) {
        const stored = await tx
          .insertInto('rollup_minute')
          .values(chunk)
          .onConflict((oc) =>
            oc
              .columns(['sn_code', 'minute'])
              .doUpdateSet((eb) =>
                Object.fromEntries(
                  ADDED_COLUMNS.map((c) => [
                    c,
                    eb(`rollup_minute.${c}`, '+', eb.ref(`excluded.${c}`)),
                  ]),
                ),
              ),
          )
          .returning([
            'sn_code',
            'minute',
            'running_ms',
            sql<number>`produced - gap_produced`.as('observed'),
          ])
          .execute();
        for (const row of stored) {
          const minute = row.minute.getTime();
          const figures = batch.minutes.get(`${row.sn_code}|${minute}`)!.figures;
          // Covered by this batch first: it covers it, and the row holds nothing but its part
          // (every figure only grows, so equal totals mean nothing was stored before).
          const firstCovered =
            isCoveredMinute(figures) &&
            row.running_ms === figures.runningMs &&
            row.observed === observedProduced(figures);
          storedMinutes.push({ sn: row.sn_code, minute, observed: row.observed, firstCovered });
          const added = {
            ...figures,
            maxMinuteProduced: row.observed,
            coveredMinutes: firstCovered ? 1 : 0,
          };
          const hour = hourStartOf(minute, timeZone);
          const hourKey = `${row.sn_code}|${hour}`;
          const inHour = hours.get(hourKey);
          if (inHour) addFigures(inHour.figures, added);
          else
            hours.set(hourKey, { sn: row.sn_code, period: new Date(hour), figures: { ...added } });
          const day = dayOf(minute, timeZone);
          const dayKey = `${row.sn_code}|${day}`;
          const inDay = days.get(dayKey);
          if (inDay) addFigures(inDay.figures, added);
          else days.set(dayKey, { sn: row.sn_code, period: day, figures: added });
        }
      }
      await addToRollup(tx, 'rollup_hour', 'hour', [...hours.values()]);
      await addToRollup(tx, 'rollup_day', 'day', [...days.values()]);
      for (const chunk of chunks(batch.statusChanges)) {
        await tx
          .insertInto('status_changes')
          .values(
            chunk.map((s) => ({
              sn_code: s.sn,
              ts: new Date(s.ts),
              status: s.status,
              idle_reason: s.idleReason,
            })),
          )
          .execute();
      }
      for (const chunk of chunks(batch.operations)) {
        await tx
          .insertInto('operation_logs')
          .values(
            chunk.map((o) => ({
              sn_code: o.sn,
              ts: new Date(o.ts),
              comment: o.comment,
              set_value: o.setValue,
              user_name: o.user,
            })),
          )
          .execute();
      }
      // Alarm edges are rare; applied in order so a raise and clear in one batch pair up.
      for (const edge of batch.alarmEdges) {
        if (edge.active) {
          await tx
            .insertInto('alarms')
            .values({ sn_code: edge.sn, code: edge.code, begin_at: new Date(edge.ts) })
            .onConflict((oc) =>
              oc.columns(['sn_code', 'code']).where('end_at', 'is', null).doNothing(),
            )
            .execute();
        } else {
          await tx
            .updateTable('alarms')
            .set({ end_at: new Date(edge.ts) })
            .where('sn_code', '=', edge.sn)
            .where('code', '=', edge.code)
            .where('end_at', 'is', null)
            .execute();
        }
      }
      for (const chunk of chunks([...batch.snapshots])) {
        await tx
          .insertInto('device_live')
          .values(
            chunk.map(([sn, s]) => ({
              sn_code: sn,
              ts: new Date(s.ts),
              status: s.status,
              idle_reason: s.idleReason,
              produced: s.produced,
              ok: s.ok,
              ng: s.ng,
              first_pass_ok: s.firstPassOk,
              active_alarms: s.activeAlarms,
            })),
          )
          .onConflict((oc) =>
            oc.column('sn_code').doUpdateSet((eb) => ({
              ts: eb.ref('excluded.ts'),
              status: eb.ref('excluded.status'),
              idle_reason: eb.ref('excluded.idle_reason'),
              produced: eb.ref('excluded.produced'),
              ok: eb.ref('excluded.ok'),
              ng: eb.ref('excluded.ng'),
              first_pass_ok: eb.ref('excluded.first_pass_ok'),
              active_alarms: eb.ref('excluded.active_alarms'),
            })),
          )
          .execute();
      }
      await alsoInTransaction?.(tx);
    });
    return storedMinutes;
  },

  /**
   * A message the database refused, kept raw; its seq counts as handled (acknowledged), fenced
   * like a batch (`expected`: the watermark before it).
   */
  async writeDeadLetter(letter: {
    gatewayId: string;
    topic: string;
    seq: number;
    expected: number;
    payload: Uint8Array;
    error: string;
  }): Promise<void> {
    await db.transaction().execute(async (tx) => {
      await moveWatermarks(
        tx,
        new Map([[letter.gatewayId, { expected: letter.expected, seq: letter.seq }]]),
      );
      await tx
        .insertInto('dead_letters')
        .values({
          gateway_id: letter.gatewayId,
          topic: letter.topic,
          seq: letter.seq,
          payload: letter.payload,
          // The error may quote the refused text; the NUL that made it fail would fail here too.
          error: letter.error.replaceAll('\u0000', '\\0'),
        })
        .execute();
    });
  },

  async countDeadLetters(): Promise<number> {
    const row = await db
      .selectFrom('dead_letters')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  },
});

export type TelemetryRepository = ReturnType<typeof createTelemetryRepository>;
