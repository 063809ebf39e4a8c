import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import {
  ADDED_COLUMNS,
  addFigures,
  emptyFigures,
  figuresFromRow,
  type Figures,
} from '../shared/metrics.ts';
import type { RangeParts } from './time-range.ts';

/** Which machines: the user's lines (null: every line, an admin), narrowed by line and group. */
export interface MachineFilter {
  lineIds: number[] | null;
  lineName?: string | undefined;
  groupName?: string | undefined;
}

const machines = (db: Db, f: MachineFilter) => {
  let q = db
    .selectFrom('devices as d')
    .innerJoin('production_lines as l', 'l.id', 'd.line_id')
    .leftJoin('product_groups as g', 'g.id', 'd.group_id');
  if (f.lineIds)
    q = f.lineIds.length ? q.where('d.line_id', 'in', f.lineIds) : q.where(sql<boolean>`false`);
  if (f.lineName) q = q.where('l.name', '=', f.lineName);
  if (f.groupName) q = q.where('g.name', '=', f.groupName);
  return q;
};

/** Sums of the additive figures, and the best observed minute as `max_minute_produced`. */
const summed = (maxMinute: Expression<number>) => [
  'sn_code' as const,
  ...ADDED_COLUMNS.map((c) => sql<number>`sum(${sql.ref(c)})::float8`.as(c)),
  sql<number>`max(${maxMinute})`.as('max_minute_produced'),
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

  async countMachines(f: MachineFilter): Promise<number> {
    const row = await machines(db, f)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** One page of machines with their targets, by line, then SN. */
  pageMachines: (f: MachineFilter, offset: number, limit: number) =>
    machines(db, f)
      .select([
        'd.sn_code',
        'd.nick_sn_code',
        'd.device_name',
        'l.name as line_name',
        'g.name as group_name',
        'd.ppm_target',
        'd.yield_target',
        'd.use_rate_target',
        'd.produce_target_number',
        'd.ng_target_number',
      ])
      .orderBy('l.sort')
      .orderBy('l.id')
      .orderBy('d.sn_code')
      .offset(offset)
      .limit(limit)
      .execute(),

  /**
   * Each machine's figures over a range: whole days from rollup_day, the partial ends from
   * rollup_minute (whose best minute is its observed parts, DESIGN.md section 5). A machine with
   * no rollup in the range gets empty figures.
   */
  async figures(sns: string[], range: RangeParts): Promise<Map<string, Figures>> {
    const out = new Map(sns.map((sn) => [sn, emptyFigures()]));
    if (sns.length === 0) return out;
    const reads = [];
    if (range.days) {
      reads.push(
        db
          .selectFrom('rollup_day')
          .select(summed(sql.ref('max_minute_produced')))
          .where('sn_code', 'in', sns)
          .where('day', '>=', range.days.first)
          .where('day', '<=', range.days.last)
          .groupBy('sn_code')
          .execute(),
      );
    }
    if (range.minutes.length) {
      reads.push(
        db
          .selectFrom('rollup_minute')
          .select(summed(sql<number>`produced - gap_produced`))
          .where('sn_code', 'in', sns)
          .where((eb) =>
            eb.or(
              range.minutes.map(([from, to]): Expression<SqlBool> =>
                eb.and([eb('minute', '>=', new Date(from)), eb('minute', '<', new Date(to))]),
              ),
            ),
          )
          .groupBy('sn_code')
          .execute(),
      );
    }
    for (const rows of await Promise.all(reads)) {
      for (const row of rows) addFigures(out.get(row.sn_code)!, figuresFromRow(row));
    }
    return out;
  },
});

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
