import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import {
  ADDED_COLUMNS,
  COVERED_MINUTE_SQL,
  type AddedColumn,
  figuresFromRow,
  type Figures,
} from '../foundation/shared/metrics.ts';

/** The parts of a range to sum (time-range.ts RangeParts): whole days, hour and minute windows. */
export interface SumParts {
  days: { first: string; last: string } | null;
  hours: [number, number][];
  minutes: [number, number][];
}

const within = (column: string, windows: [number, number][]) =>
  sql.join(
    windows.map(
      ([from, to]) =>
        sql`(${sql.ref(column)} >= ${new Date(from)} AND ${sql.ref(column)} < ${new Date(to)})`,
    ),
    sql` OR `,
  );

export const createStatisticsRepository = (db: Db) => ({
  /**
   * Each machine's sums over `parts`, in one round trip: its whole days from rollup_day, its
   * whole hours from rollup_hour and its partial hours from rollup_minute (whose best minute is its
   * observed parts and which covers itself or not, docs/design.md section 5). The best observed
   * minute comes as `max_minute_produced`, the minutes PPM covers as `covered_minutes`. A machine
   * with no rollup in them is not in the map.
   */
  async sums(sns: string[], parts: SumParts): Promise<Map<string, Figures>> {
    const columns = sql.join(ADDED_COLUMNS.map((c) => sql.ref(c)));
    const bySn = sql`sn_code IN (${sql.join(sns)})`;
    const selects = [];
    if (parts.days)
      selects.push(sql`SELECT sn_code, ${columns}, max_minute_produced AS best,
        covered_minutes AS covered FROM rollup_day
        WHERE ${bySn} AND day >= ${parts.days.first} AND day <= ${parts.days.last}`);
    if (parts.hours.length > 0)
      selects.push(sql`SELECT sn_code, ${columns}, max_minute_produced AS best,
        covered_minutes AS covered FROM rollup_hour
        WHERE ${bySn} AND (${within('hour', parts.hours)})`);
    if (parts.minutes.length > 0)
      selects.push(sql`SELECT sn_code, ${columns}, produced - gap_produced AS best,
        (${sql.raw(COVERED_MINUTE_SQL)})::int AS covered FROM rollup_minute
        WHERE ${bySn} AND (${within('minute', parts.minutes)})`);
    if (sns.length === 0 || selects.length === 0) return new Map();
    const sums = sql.join(
      ADDED_COLUMNS.map((c) => sql`sum(${sql.ref(c)})::float8 AS ${sql.ref(c)}`),
    );
    const rows = await sql<
      Record<AddedColumn, number> & {
        sn_code: string;
        max_minute_produced: number;
        covered_minutes: number;
      }
    >`SELECT sn_code, ${sums}, max(best)::float8 AS max_minute_produced,
        sum(covered)::float8 AS covered_minutes
      FROM (${sql.join(selects, sql` UNION ALL `)}) AS parts
      GROUP BY sn_code`.execute(db);
    return new Map(rows.rows.map((r): [string, Figures] => [r.sn_code, figuresFromRow(r)]));
  },
});

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
