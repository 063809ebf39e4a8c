import type { ReportReply } from '@linewatch/contracts/alerts';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { ADDED_COLUMNS, figuresFromRow, type Figures } from '../foundation/shared/metrics.ts';

const DAY_MS = 86_400_000;
/** The weekly report's range starts this many days before the date it is for (docs/product.md section 9). */
export const WEEK_RANGE_DAYS = 15;
const TOP_ALARMS = 5;

/** 'YYYY-MM-DD' plus n days (calendar arithmetic, no time zone involved). */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export interface ReportDevice {
  sn: string;
  nickSnCode: string;
  deviceName: string;
  ppmTarget: number;
  yieldTarget: number;
  useRateTarget: number;
}

/** The additive figures summed, with the minutes PPM covers (hour and day rows hold both). */
const sums = () =>
  sql.join(
    [...ADDED_COLUMNS, 'covered_minutes' as const].map(
      (c) => sql`coalesce(sum(${sql.ref(c)}), 0)::float8 as ${sql.ref(c)}`,
    ),
  );
type SumRow = Record<(typeof ADDED_COLUMNS)[number] | 'covered_minutes', number>;

/**
 * The figures behind the daily/weekly report and its messages, from the rollups and the alarm
 * record: a day by hour (rollup_hour, kept for good) or days (rollup_day), and the
 * top alarms overlapping the period with their minutes inside it.
 */
export const createReports = (
  db: Db,
  timeZone: string,
  alarmDescription: (code: string) => string | null,
) => {
  /** The instant a factory day starts. */
  const startOf = (day: string) => sql<Date>`(${day}::date::timestamp at time zone ${timeZone})`;

  const topAlarms = async (
    sn: string,
    first: string,
    last: string,
  ): Promise<ReportReply['dtTop']> => {
    const rows = await sql<{
      code: string;
      artificial_des: string | null;
      times: number;
      ms: number;
    }>`
      select a.code, m.artificial_des, count(*)::int as times,
        coalesce(sum(extract(epoch from least(coalesce(end_at, now()), ${startOf(addDays(last, 1))})
          - greatest(begin_at, ${startOf(first)})) * 1000), 0)::float8 as ms
      from alarms a left join alarm_manuals m on m.code = a.code
      where a.sn_code = ${sn} and a.begin_at < ${startOf(addDays(last, 1))}
        and (a.end_at is null or a.end_at > ${startOf(first)})
      group by a.code, m.artificial_des order by times desc, ms desc, a.code
      limit ${TOP_ALARMS}`.execute(db);
    const total = rows.rows.reduce((s, r) => s + Math.max(0, r.ms), 0);
    return rows.rows.map((r) => ({
      code: r.code,
      description: alarmDescription(r.code) ?? '',
      times: r.times,
      duration: Math.round(Math.max(0, r.ms) / 60_000),
      percentage: total > 0 ? Math.round((Math.max(0, r.ms) / total) * 10_000) / 100 : 0,
      artificialDes: r.artificial_des ?? '',
    }));
  };

  const point = (date: string, f: Figures) => {
    const d = deriveFigures(f);
    return {
      three: { date, activation: d.useRate, yield: d.yield, ppm: d.ppm },
      dt: { date, value: Math.round(f.faultMs / 60_000) },
    };
  };

  return {
    /** The period's totals of a machine over whole days (the message's figures). */
    async totals(sn: string, first: string, last: string): Promise<Figures> {
      const row = await sql<SumRow>`select ${sums()} from rollup_day
        where sn_code = ${sn} and day between ${first}::date and ${last}::date`.execute(db);
      return figuresFromRow(row.rows[0]!);
    },

    topAlarms,

    /** One day by hour (`date`) or the WEEK_RANGE_DAYS days before `day` day by day (`week`). */
    async report(device: ReportDevice, type: 'date' | 'week', day: string): Promise<ReportReply> {
      const first = type === 'date' ? day : addDays(day, -WEEK_RANGE_DAYS);
      const last = day;
      let points: ReturnType<typeof point>[];
      if (type === 'date') {
        const rows = await sql<SumRow & { h: number }>`
          select extract(hour from hour at time zone ${timeZone})::int as h, ${sums()}
          from rollup_hour where sn_code = ${device.sn}
            and hour >= ${startOf(day)} and hour < ${startOf(addDays(day, 1))}
          group by h order by h`.execute(db);
        points = rows.rows.map((r) =>
          point(`${String(r.h).padStart(2, '0')}:00`, figuresFromRow(r)),
        );
      } else {
        const rows = await sql<SumRow & { day: string }>`
          select to_char(day, 'YYYY-MM-DD') as day, ${sums()} from rollup_day
          where sn_code = ${device.sn} and day between ${first}::date and ${last}::date
          group by day order by day`.execute(db);
        points = rows.rows.map((r) => point(r.day, figuresFromRow(r)));
      }
      return {
        snCode: device.sn,
        nickSnCode: device.nickSnCode,
        deviceName: device.deviceName,
        pageType: type,
        beginTime: first,
        endTime: last,
        targets: {
          ppmTarget: device.ppmTarget,
          yieldTarget: device.yieldTarget,
          useRateTarget: device.useRateTarget,
        },
        threeParam: points.map((p) => p.three),
        dt: points.map((p) => p.dt),
        dtTop: await topAlarms(device.sn, first, last),
      };
    },
  };
};

export type Reports = ReturnType<typeof createReports>;
