import type { Figures } from '../foundation/shared/metrics.ts';
import type { AlertsRepository, ReportedMachine } from './repository.ts';

const DAY_MS = 86_400_000;
/** The weekly report's range starts this many days before the date it is for (docs/product.md section 9). */
export const WEEK_RANGE_DAYS = 15;
const TOP_ALARMS = 5;

/** 'YYYY-MM-DD' plus n days (calendar arithmetic, no time zone involved). */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** An alarm code of a report: how often it began and its milliseconds inside the period. */
export interface ReportAlarm {
  code: string;
  /** The alarm definition's words, '' when the code has none. */
  description: string;
  times: number;
  ms: number;
  artificialDes: string;
}

/** A daily (by hour) or weekly (by day) report of a machine, before it is shaped for the page. */
export interface Report {
  machine: ReportedMachine;
  type: 'date' | 'week';
  first: string;
  last: string;
  periods: { label: string; figures: Figures }[];
  alarms: ReportAlarm[];
}

/**
 * The figures behind the daily/weekly report and its messages, from the rollups and the alarm
 * record: a day by hour (rollup_hour, kept for good) or days (rollup_day), and the
 * top alarms overlapping the period with their minutes inside it.
 */
export const createReports = (
  repo: AlertsRepository,
  timeZone: string,
  alarmDescription: (code: string) => string | null,
) => {
  const topAlarms = async (sn: string, first: string, last: string): Promise<ReportAlarm[]> => {
    const rows = await repo.topAlarms(sn, first, addDays(last, 1), timeZone, TOP_ALARMS);
    return rows.map((r) => ({
      code: r.code,
      description: alarmDescription(r.code) ?? '',
      times: r.times,
      // An alarm recorded as ending before it began counts no time.
      ms: Math.max(0, r.ms),
      artificialDes: r.artificialDes ?? '',
    }));
  };

  return {
    /** The period's totals of a machine over whole days (the message's figures). */
    totals: (sn: string, first: string, last: string): Promise<Figures> =>
      repo.dayTotals(sn, first, last),

    topAlarms,

    /** One day by hour (`date`) or the WEEK_RANGE_DAYS days before `day` day by day (`week`). */
    async report(device: ReportedMachine, type: 'date' | 'week', day: string): Promise<Report> {
      const first = type === 'date' ? day : addDays(day, -WEEK_RANGE_DAYS);
      const last = day;
      const periods =
        type === 'date'
          ? (await repo.hourFigures(device.sn, day, addDays(day, 1), timeZone)).map((h) => ({
              label: `${String(h.hour).padStart(2, '0')}:00`,
              figures: h.figures,
            }))
          : (await repo.dayFigures(device.sn, first, last)).map((d) => ({
              label: d.day,
              figures: d.figures,
            }));
      return {
        machine: device,
        type,
        first,
        last,
        periods,
        alarms: await topAlarms(device.sn, first, last),
      };
    },
  };
};

export type Reports = ReturnType<typeof createReports>;
