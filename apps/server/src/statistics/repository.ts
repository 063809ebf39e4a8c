import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import {
  ADDED_COLUMNS,
  COVERED_MINUTE_SQL,
  figuresFromRow,
  type Figures,
} from '../foundation/shared/metrics.ts';

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

export const createStatisticsRepository = (db: Db) => ({
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
   * best minute is its observed parts, docs/design.md section 5); none: no rollup in them.
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
