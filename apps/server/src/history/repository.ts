import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { ADDED_COLUMNS, figuresFromRow, type Figures } from '../foundation/shared/metrics.ts';

/** A period's figures: `key` is 'HH' (an hour), or the day or week-start 'YYYY-MM-DD'. */
export interface PeriodFigures {
  key: string;
  figures: Figures;
}

export interface AlarmTotal {
  code: string;
  description: string;
  artificialDes: string;
  /** Alarms of this code that began in the range. */
  times: number;
  /** Milliseconds of this code's alarms inside the range (an open one lasts until `now`). */
  ms: number;
}

export interface DeviceTargets {
  snCode: string;
  nickSnCode: string;
  deviceName: string;
  nickDeviceName: string;
  projectName: string;
  ppmTarget: number;
  yieldTarget: number;
  superiorityRateTarget: number;
  useRateTarget: number;
}

interface LogRow {
  content: string;
  begin_time: string;
  end_time: string | null;
}

/** The sums of every additive figure (their column names), for a GROUP BY over rollup rows. */
/** The additive figures summed, with the covered minutes (hour and day rows hold both). */
const summed = sql.raw(
  [...ADDED_COLUMNS, 'covered_minutes'].map((c) => `sum(${c})::bigint AS ${c}`).join(', '),
);

const toRows = (rows: ({ key: string } & Record<string, unknown>)[]): PeriodFigures[] =>
  rows.map((r) => ({ key: r.key, figures: figuresFromRow(r as never) }));

/**
 * Reads for device history and logs. Hours come from rollup_hour (24 rows of one machine, kept
 * for good: a day older than the minutes' retention still has its hours); days and weeks from
 * rollup_day (a 31-day range is 31 rows). Times leave formatted in the factory's time zone.
 */
export const createHistoryRepository = (db: Db, timeZone: string) => {
  /** The instant a factory day starts (00:00 in the time zone). */
  const dayStart = (day: string): RawBuilder<Date> =>
    sql<Date>`(${day}::date)::timestamp AT TIME ZONE ${timeZone}`;
  const local = (column: RawBuilder<unknown> | string) =>
    sql<string>`to_char(${typeof column === 'string' ? sql.ref(column) : column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;

  return {
    async device(sn: string): Promise<DeviceTargets | undefined> {
      const row = await db
        .selectFrom('devices')
        .select([
          'sn_code',
          'nick_sn_code',
          'device_name',
          'nick_device_name',
          'project_name',
          'ppm_target',
          'yield_target',
          'superiority_rate_target',
          'use_rate_target',
        ])
        .where('sn_code', '=', sn)
        .executeTakeFirst();
      return (
        row && {
          snCode: row.sn_code,
          nickSnCode: row.nick_sn_code,
          deviceName: row.device_name,
          nickDeviceName: row.nick_device_name,
          projectName: row.project_name,
          ppmTarget: row.ppm_target,
          yieldTarget: row.yield_target,
          superiorityRateTarget: row.superiority_rate_target,
          useRateTarget: row.use_rate_target,
        }
      );
    },

    /** One factory day's hours that have figures. */
    async hours(sn: string, day: string): Promise<PeriodFigures[]> {
      const { rows } = await sql<{ key: string } & Record<string, unknown>>`
        SELECT to_char(hour AT TIME ZONE ${timeZone}, 'HH24') AS key, ${summed},
               max(max_minute_produced)::bigint AS max_minute_produced
        FROM rollup_hour
        WHERE sn_code = ${sn}
          AND hour >= ${dayStart(day)}
          AND hour < ${dayStart(day)} + interval '1 day'
        GROUP BY 1`.execute(db);
      return toRows(rows);
    },

    /** The days of [from, to] that have figures. */
    async days(sn: string, from: string, to: string): Promise<PeriodFigures[]> {
      const { rows } = await sql<{ key: string } & Record<string, unknown>>`
        SELECT to_char(day, 'YYYY-MM-DD') AS key, ${summed},
               max(max_minute_produced)::bigint AS max_minute_produced
        FROM rollup_day
        WHERE sn_code = ${sn} AND day BETWEEN ${from}::date AND ${to}::date
        GROUP BY day`.execute(db);
      return toRows(rows);
    },

    /** The weeks (Monday first) of [from, to], summing only the days inside the range. */
    async weeks(sn: string, from: string, to: string): Promise<PeriodFigures[]> {
      const { rows } = await sql<{ key: string } & Record<string, unknown>>`
        SELECT to_char(date_trunc('week', day), 'YYYY-MM-DD') AS key, ${summed},
               max(max_minute_produced)::bigint AS max_minute_produced
        FROM rollup_day
        WHERE sn_code = ${sn} AND day BETWEEN ${from}::date AND ${to}::date
        GROUP BY 1`.execute(db);
      return toRows(rows);
    },

    /** Each alarm code's count and minutes within the days [from, to], up to `now`. */
    async alarmTotals(sn: string, from: string, to: string, now: Date): Promise<AlarmTotal[]> {
      const start = dayStart(from);
      const end = sql<Date>`least(${dayStart(to)} + interval '1 day', ${now}::timestamptz)`;
      const { rows } = await sql<{
        code: string;
        description: string | null;
        artificial_des: string | null;
        times: number;
        ms: number | string;
      }>`
        SELECT a.code, d.description, m.artificial_des,
               (count(*) FILTER (WHERE a.begin_at >= ${start}))::int AS times,
               round(sum(extract(epoch FROM
                 least(coalesce(a.end_at, ${now}::timestamptz), ${end}) - greatest(a.begin_at, ${start})
               )) * 1000)::bigint AS ms
        FROM alarms a
        LEFT JOIN alarm_definitions d ON d.code = a.code
        LEFT JOIN alarm_manuals m ON m.code = a.code
        WHERE a.sn_code = ${sn}
          AND a.begin_at < ${end}
          AND coalesce(a.end_at, ${now}::timestamptz) > ${start}
        GROUP BY a.code, d.description, m.artificial_des`.execute(db);
      return rows.map((r) => ({
        code: r.code,
        description: r.description ?? '',
        artificialDes: r.artificial_des ?? '',
        times: r.times,
        ms: Number(r.ms),
      }));
    },

    /** The alarms that began on a factory day, newest first, one page, and how many there are. */
    async alarmsOfDay(
      sn: string,
      day: string,
      page: { offset: number; limit: number },
    ): Promise<{ rows: LogRow[]; total: number }> {
      const inDay = sql<boolean>`a.sn_code = ${sn} AND a.begin_at >= ${dayStart(day)}
        AND a.begin_at < ${dayStart(day)} + interval '1 day'`;
      const { rows } = await sql<LogRow>`
        SELECT concat_ws(' ', a.code, d.description) AS content,
               ${local('a.begin_at')} AS begin_time, ${local('a.end_at')} AS end_time
        FROM alarms a LEFT JOIN alarm_definitions d ON d.code = a.code
        WHERE ${inDay}
        ORDER BY a.begin_at DESC, a.id DESC
        LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
      const count = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM alarms a WHERE ${inDay}`.execute(db);
      return { rows, total: count.rows[0]?.n ?? 0 };
    },

    /** The machine's alarms active now. */
    async openAlarms(sn: string): Promise<LogRow[]> {
      const { rows } = await sql<LogRow>`
        SELECT concat_ws(' ', a.code, d.description) AS content,
               ${local('a.begin_at')} AS begin_time, NULL AS end_time
        FROM alarms a LEFT JOIN alarm_definitions d ON d.code = a.code
        WHERE a.sn_code = ${sn} AND a.end_at IS NULL
        ORDER BY a.begin_at DESC`.execute(db);
      return rows;
    },

    /** Operation-log lines of the days [from, to], newest first, one page, and how many. */
    async operations(
      sn: string,
      from: string,
      to: string,
      page: { offset: number; limit: number },
    ) {
      const inRange = sql<boolean>`sn_code = ${sn} AND ts >= ${dayStart(from)}
        AND ts < ${dayStart(to)} + interval '1 day'`;
      const { rows } = await sql<{
        comment: string;
        set_value: string;
        record_time: string;
        user_name: string;
      }>`
        SELECT comment, set_value, ${local('ts')} AS record_time, user_name
        FROM operation_logs
        WHERE ${inRange}
        ORDER BY ts DESC, id DESC
        LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
      const count = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM operation_logs WHERE ${inRange}`.execute(db);
      return { rows, total: count.rows[0]?.n ?? 0 };
    },
  };
};

export type HistoryRepository = ReturnType<typeof createHistoryRepository>;
