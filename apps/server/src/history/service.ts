import { ReplyCode } from '@linewatch/contracts/envelope';
import {
  historyMessages,
  type historyDetailQuery,
  type historyQuery,
  type HistoryDetailReply,
  type HistoryDtReply,
  type HistoryReply,
  type operationLogQuery,
  type OperationLogReply,
  type stopAlarmQuery,
  type StopAlarmReply,
} from '@linewatch/contracts/history';
import type { z } from 'zod';
import { DomainError } from '../foundation/http/envelope.ts';
import { dayOf, hourLabelOf } from '../foundation/shared/time.ts';
import {
  detailRow,
  dtPoint,
  dtRow,
  operationLog,
  stopAlarm,
  threeParamPoint,
  topAlarms,
  type Period,
} from './presenter.ts';
import type { DeviceTargets, HistoryRepository, PeriodFigures } from './repository.ts';

type HistoryQuery = z.output<typeof historyQuery>;
type DetailQuery = z.output<typeof historyDetailQuery>;
type StopAlarmQuery = z.output<typeof stopAlarmQuery>;
type OperationLogQuery = z.output<typeof operationLogQuery>;

const DAY_MS = 86_400_000;
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Monday of the week of a calendar day (weeks as PostgreSQL's date_trunc('week') cuts them). */
const mondayOf = (day: string) =>
  iso(utc(day) - ((new Date(utc(day)).getUTCDay() + 6) % 7) * DAY_MS);

const daysFrom = (from: string, to: string, step = 1) => {
  const out: string[] = [];
  for (let t = utc(from); t <= utc(to); t += step * DAY_MS) out.push(iso(t));
  return out;
};

/**
 * The weeks (Monday to Sunday) a range touches, oldest first: each read by its Monday (the
 * repository's key) and labelled by its first day inside the range, so a range starting on a
 * Friday the 20th opens with the week of the 20th, not of Monday the 16th.
 */
export const weeksOf = (from: string, to: string) =>
  daysFrom(mondayOf(from), mondayOf(to), 7).map((monday) => ({
    monday,
    label: monday < from ? from : monday,
  }));

const byKey = (rows: PeriodFigures[]) => new Map(rows.map((r) => [r.key, r.figures]));

/** One day is shown by hour, a range by day, or by week when asked. */
type View = 'hour' | 'day' | 'week';
const viewOf = (q: HistoryQuery): View =>
  q.pageType === 'week' ? 'week' : q.beginTime === q.endTime ? 'hour' : 'day';

const tooLate = (path: string) =>
  new DomainError(ReplyCode.badInput, historyMessages.future, {
    errors: [{ path, message: historyMessages.future }],
  });

/**
 * Device history and logs of one machine (the route has checked the user may see it). The views:
 * one day by hour, a range by day, or by week (`pageType` week); every period of the view is in
 * the reply, an unobserved one with `hasData` false and null ratios (docs/design.md section 5).
 */
export const createHistoryService = ({
  repo,
  timeZone,
}: {
  repo: HistoryRepository;
  timeZone: string;
}) => {
  const targetsOf = async (sn: string): Promise<DeviceTargets> => {
    const device = await repo.device(sn);
    if (!device) throw new DomainError(ReplyCode.notFound, historyMessages.noDevice);
    return device;
  };

  /** The periods of a view, oldest first, each with its figures if any were recorded. */
  const periodsOf = async (
    sn: string,
    from: string,
    to: string,
    view: View,
    now: number,
  ): Promise<Period[]> => {
    const today = dayOf(now, timeZone);
    if (view === 'week') {
      const rows = byKey(await repo.weeks(sn, from, to));
      return weeksOf(from, to).map(({ monday, label }) => ({
        label,
        figures: rows.get(monday),
        partial: monday === mondayOf(today),
      }));
    }
    if (view === 'hour') {
      const rows = byKey(await repo.hours(sn, from));
      const hourNow = from === today ? hourLabelOf(now, timeZone) : null;
      return Array.from({ length: 24 }, (_, h) => {
        const key = String(h).padStart(2, '0');
        return { label: `${key}:00`, figures: rows.get(key), partial: `${key}:00` === hourNow };
      });
    }
    const rows = byKey(await repo.days(sn, from, to));
    return daysFrom(from, to).map((day) => ({
      label: day,
      figures: rows.get(day),
      partial: day === today,
    }));
  };

  const notFuture = (day: string, path: string, now: number) => {
    if (day > dayOf(now, timeZone)) throw tooLate(path);
  };

  return {
    async history(sn: string, q: HistoryQuery, now = Date.now()): Promise<HistoryReply> {
      notFuture(q.endTime, 'endTime', now);
      const targets = await targetsOf(sn);
      const periods = await periodsOf(sn, q.beginTime, q.endTime, viewOf(q), now);
      const rows = periods.map((p) => detailRow(p, targets));
      const dts = periods.map(dtRow);
      return {
        projectId: targets.projectName,
        snCode: targets.snCode,
        nickSnCode: targets.nickSnCode,
        deviceName: targets.deviceName,
        nickDeviceName: targets.nickDeviceName,
        pageType: q.pageType,
        hasData: rows.some((r) => r.hasData),
        threeParam: rows.map(threeParamPoint),
        dt: dts.map(dtPoint),
        dtTop: topAlarms(await repo.alarmTotals(sn, q.beginTime, q.endTime, new Date(now))),
        threeParamList: rows,
        dtList: dts,
      };
    },

    async dt(sn: string, q: HistoryQuery, now = Date.now()): Promise<HistoryDtReply> {
      notFuture(q.endTime, 'endTime', now);
      const dts = (await periodsOf(sn, q.beginTime, q.endTime, viewOf(q), now)).map(dtRow);
      return {
        snCode: sn,
        pageType: q.pageType,
        hasData: dts.some((r) => r.hasData),
        dt: dts.map(dtPoint),
        dtList: dts,
      };
    },

    /** The range table: one row per day, whatever the range's length (up to 31). */
    async detail(sn: string, q: DetailQuery, now = Date.now()): Promise<HistoryDetailReply> {
      notFuture(q.endTime, 'endTime', now);
      const targets = await targetsOf(sn);
      const periods = await periodsOf(sn, q.startTime, q.endTime, 'day', now);
      return {
        detailData: periods.map((p) => detailRow(p, targets)),
        dtData: periods.map(dtRow),
      };
    },

    async stopAlarms(sn: string, q: StopAlarmQuery, now = Date.now()): Promise<StopAlarmReply> {
      notFuture(q.date, 'date', now);
      const offset = (q.pageNumber - 1) * q.pageSize;
      const [page, open] = [
        await repo.alarmsOfDay(sn, q.date, { offset, limit: q.pageSize }),
        await repo.openAlarms(sn),
      ];
      return {
        currentWarning: open.map(stopAlarm),
        data: page.rows.map(stopAlarm),
        page: {
          pageNumber: q.pageNumber,
          pageSize: q.pageSize,
          total: page.total,
          totalPage: Math.ceil(page.total / q.pageSize),
        },
      };
    },

    async operationLog(
      sn: string,
      q: OperationLogQuery,
      now = Date.now(),
    ): Promise<OperationLogReply> {
      notFuture(q.endTime, 'endTime', now);
      const page = await repo.operations(sn, q.startTime, q.endTime, {
        offset: (q.pageIndex - 1) * q.pageSize,
        limit: q.pageSize,
      });
      return {
        data: page.rows.map(operationLog),
        total: page.total,
        totalPage: Math.ceil(page.total / q.pageSize),
      };
    },
  };
};

export type HistoryService = ReturnType<typeof createHistoryService>;
