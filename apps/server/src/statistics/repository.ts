import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import {
  ADDED_COLUMNS,
  COVERED_MINUTE_SQL,
  figuresFromRow,
  type Figures,
} from '../shared/metrics.ts';

/** Which machines: the user's lines (null: every line, an admin). */
export interface MachineFilter {
  lineIds: number[] | null;
}

const machines = (db: Db, f: MachineFilter) => {
  const q = db.selectFrom('devices as d').innerJoin('production_lines as l', 'l.id', 'd.line_id');
  if (!f.lineIds) return q;
  return f.lineIds.length ? q.where('d.line_id', 'in', f.lineIds) : q.where(sql<boolean>`false`);
};

/**
 * Sums of the additive figures, the best observed minute as `max_minute_produced` and the minutes
 * PPM covers as `covered_minutes` (a count of minute rows, a sum of hour and day rows).
 */
const summed = (maxMinute: Expression<number>, covered: Expression<number>) => [
  'sn_code' as const,
  ...ADDED_COLUMNS.map((c) => sql<number>`sum(${sql.ref(c)})::float8`.as(c)),
  sql<number>`max(${maxMinute})`.as('max_minute_produced'),
  sql<number>`sum(${covered})::float8`.as('covered_minutes'),
];

/** A machine's place, by the column the map's levels name it. */
export type PlaceColumn = 'country' | 'province' | 'city';
/** An area of the map: every machine (null), or those whose `column` is `name`. */
export type AreaFilter = { column: PlaceColumn; name: string } | null;

const inArea = (db: Db, f: MachineFilter, area: AreaFilter) => {
  const q = machines(db, f);
  return area ? q.where(`d.${area.column}`, '=', area.name) : q;
};

/** device_live's status codes (the reading's: 1 idle, 2 running, 3 fault). */
const countWithStatus = (status: 1 | 2 | 3, onlineSince: Date) =>
  sql<number>`(count(*) filter (where dl.ts >= ${onlineSince} and dl.status = ${status}))::int`;

export const createStatisticsRepository = (db: Db) => ({
  /**
   * An area's machines by status, counted in SQL from each machine's last committed reading
   * (device_live, one flush behind the live state, ≤ 100 ms): one row whatever the machine count.
   * A machine silent since before `onlineSince`, or never heard, is off line.
   */
  async statusCounts(f: MachineFilter, area: AreaFilter, onlineSince: Date) {
    return inArea(db, f, area)
      .leftJoin('device_live as dl', 'dl.sn_code', 'd.sn_code')
      .select([
        sql<number>`count(*)::int`.as('total'),
        countWithStatus(2, onlineSince).as('running'),
        countWithStatus(1, onlineSince).as('standby'),
        countWithStatus(3, onlineSince).as('error'),
      ])
      .executeTakeFirstOrThrow();
  },

  /**
   * An area's machines grouped by `by` (a region of the next level), named regions only, each
   * with its count and the mean position of its placed machines (null when none is placed).
   */
  regions: (f: MachineFilter, area: AreaFilter, by: PlaceColumn) => {
    const placed = sql`d.lng is not null and d.lat is not null`;
    return inArea(db, f, area)
      .where(`d.${by}`, '<>', '')
      .select([
        sql<string>`${sql.ref(`d.${by}`)}`.as('name'),
        sql<number>`count(*)::int`.as('value'),
        sql<number | null>`avg(d.lng) filter (where ${placed})`.as('lng'),
        sql<number | null>`avg(d.lat) filter (where ${placed})`.as('lat'),
      ])
      .groupBy(`d.${by}`)
      .execute();
  },

  /** Each machine's sums over a run of whole days (rollup_day); none: no rollup in them. */
  async daySums(sns: string[], days: { first: string; last: string }) {
    const rows = await db
      .selectFrom('rollup_day')
      .select(summed(sql.ref('max_minute_produced'), sql.ref('covered_minutes')))
      .where('sn_code', 'in', sns)
      .where('day', '>=', days.first)
      .where('day', '<=', days.last)
      .groupBy('sn_code')
      .execute();
    return new Map(rows.map((r): [string, Figures] => [r.sn_code, figuresFromRow(r)]));
  },

  /** Each machine's sums over runs of whole hours (rollup_hour); none: no rollup in them. */
  async hourSums(sns: string[], windows: [number, number][]) {
    const rows = await db
      .selectFrom('rollup_hour')
      .select(summed(sql.ref('max_minute_produced'), sql.ref('covered_minutes')))
      .where('sn_code', 'in', sns)
      .where((eb) =>
        eb.or(
          windows.map(([from, to]): Expression<SqlBool> =>
            eb.and([eb('hour', '>=', new Date(from)), eb('hour', '<', new Date(to))]),
          ),
        ),
      )
      .groupBy('sn_code')
      .execute();
    return new Map(rows.map((r): [string, Figures] => [r.sn_code, figuresFromRow(r)]));
  },

  /**
   * Each machine's sums over minute windows, the partial hours of a range (rollup_minute, whose
   * best minute is its observed parts, DESIGN.md section 5); none: no rollup in them.
   */
  async minuteSums(sns: string[], windows: [number, number][]) {
    const rows = await db
      .selectFrom('rollup_minute')
      .select(
        summed(
          sql<number>`produced - gap_produced`,
          sql<number>`(${sql.raw(COVERED_MINUTE_SQL)})::int`,
        ),
      )
      .where('sn_code', 'in', sns)
      .where((eb) =>
        eb.or(
          windows.map(([from, to]): Expression<SqlBool> =>
            eb.and([eb('minute', '>=', new Date(from)), eb('minute', '<', new Date(to))]),
          ),
        ),
      )
      .groupBy('sn_code')
      .execute();
    return new Map(rows.map((r): [string, Figures] => [r.sn_code, figuresFromRow(r)]));
  },
});

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
