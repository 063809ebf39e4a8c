import type { ReportReply } from '@linewatch/contracts/alerts';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import type { Figures } from '../foundation/shared/metrics.ts';
import type { AlertsRepository, ReportedMachine } from './repository.ts';

const DAY_MS = 86_400_000;
/** The weekly report's range starts this many days before the date it is for (docs/product.md section 9). */
export const WEEK_RANGE_DAYS = 15;
const TOP_ALARMS = 5;

/** 'YYYY-MM-DD' plus n days (calendar arithmetic, no time zone involved). */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

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
  const topAlarms = async (
    sn: string,
    first: string,
    last: string,
  ): Promise<ReportReply['dtTop']> => {
    const rows = await repo.topAlarms(sn, first, addDays(last, 1), timeZone, TOP_ALARMS);
    const total = rows.reduce((s, r) => s + Math.max(0, r.ms), 0);
    return rows.map((r) => ({
      code: r.code,
      description: alarmDescription(r.code) ?? '',
      times: r.times,
      duration: Math.round(Math.max(0, r.ms) / 60_000),
      percentage: total > 0 ? Math.round((Math.max(0, r.ms) / total) * 10_000) / 100 : 0,
      artificialDes: r.artificialDes ?? '',
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
    totals: (sn: string, first: string, last: string): Promise<Figures> =>
      repo.dayTotals(sn, first, last),

    topAlarms,

    /** One day by hour (`date`) or the WEEK_RANGE_DAYS days before `day` day by day (`week`). */
    async report(
      device: ReportedMachine,
      type: 'date' | 'week',
      day: string,
    ): Promise<ReportReply> {
      const first = type === 'date' ? day : addDays(day, -WEEK_RANGE_DAYS);
      const last = day;
      let points: ReturnType<typeof point>[];
      if (type === 'date') {
        const hours = await repo.hourFigures(device.sn, day, addDays(day, 1), timeZone);
        points = hours.map((h) => point(`${String(h.hour).padStart(2, '0')}:00`, h.figures));
      } else {
        const days = await repo.dayFigures(device.sn, first, last);
        points = days.map((d) => point(d.day, d.figures));
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
