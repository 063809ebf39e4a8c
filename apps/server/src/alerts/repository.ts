import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { ADDED_COLUMNS, figuresFromRow, type Figures } from '../shared/metrics.ts';

export type Rule = 'alarm' | 'realTimeReminder' | 'threeParameters';

const RULE_COLUMN = {
  alarm: 'alarm',
  realTimeReminder: 'real_time_reminder',
  threeParameters: 'three_parameters',
} as const;

export interface Subscriber {
  userId: number;
  timeLength: number;
}

export interface HourFigures {
  sn: string;
  deviceName: string;
  ppmTarget: number;
  yieldTarget: number;
  useRateTarget: number;
  figures: Figures;
}

/** A subscriber still sees the machine: an admin, or granted its line (access can be withdrawn). */
const visibleToSubscriber = sql<boolean>`(u.is_admin or exists (
  select 1 from user_lines ul where ul.user_id = uf.user_id and ul.line_id = d.line_id))`;

export const createAlertsRepository = (db: Db) => ({
  /** Alarm code → description (migration 004): a small table, read once at start. */
  async alarmDescriptions(): Promise<ReadonlyMap<string, string>> {
    const rows = await db.selectFrom('alarm_definitions').select(['code', 'description']).execute();
    return new Map(rows.map((r) => [r.code, r.description]));
  },

  async subscribers(sn: string, rule: Rule): Promise<Subscriber[]> {
    const rows = await sql<{ user_id: number; time_length: number }>`
      select uf.user_id, uf.time_length from user_follows uf
      join users u on u.id = uf.user_id join devices d on d.sn_code = uf.sn_code
      where uf.sn_code = ${sn} and ${sql.ref(`uf.${RULE_COLUMN[rule]}`)} and ${visibleToSubscriber}
      order by uf.user_id`.execute(db);
    return rows.rows.map((r) => ({ userId: r.user_id, timeLength: r.time_length }));
  },

  /**
   * Since when a machine has been stopped (idle or fault) without running in between, from its
   * status changes; null when the record has none (the engine then counts from what it sees).
   */
  async stoppedSince(sn: string): Promise<number | null> {
    const row = await sql<{ since: Date | null }>`
      select min(ts) as since from status_changes
      where sn_code = ${sn} and status <> 2 and ts > coalesce(
        (select max(ts) from status_changes where sn_code = ${sn} and status = 2), '-infinity')`.execute(
      db,
    );
    const since = row.rows[0]?.since;
    return since ? new Date(since).getTime() : null;
  },

  /** The window's figures of every machine someone watches the three parameters of. */
  async watchedFigures(from: Date, to: Date): Promise<HourFigures[]> {
    const sums = ADDED_COLUMNS.map((c) => sql`sum(m.${sql.ref(c)})::float8 as ${sql.ref(c)}`);
    const rows = await sql<
      Record<string, number> & {
        sn_code: string;
        device_name: string;
        ppm_target: number;
        yield_target: number;
        use_rate_target: number;
      }
    >`
      select d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target,
        ${sql.join(sums)}
      from rollup_minute m join devices d on d.sn_code = m.sn_code
      where m.minute >= ${from} and m.minute < ${to}
        and exists (select 1 from user_follows uf where uf.sn_code = d.sn_code and uf.three_parameters)
      group by d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target`.execute(
      db,
    );
    return rows.rows.map((r) => ({
      sn: r.sn_code,
      deviceName: r.device_name,
      ppmTarget: r.ppm_target,
      yieldTarget: r.yield_target,
      useRateTarget: r.use_rate_target,
      figures: figuresFromRow(r as never),
    }));
  },
});

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
