import type { dailyOrWeeklyQuery, saveChannelsBody } from '@linewatch/contracts/alerts';
import { alertMessages } from '@linewatch/contracts/alerts';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import type { z } from 'zod';
import type { Db } from '../foundation/db/database.ts';
import type { DeviceInfo } from '../core/machine.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import type { ChannelName, Notice } from '../notifications/notice.ts';
import type { Notifications } from '../notifications/service.ts';
import { dayOf } from '../foundation/shared/time.ts';
import { addDays, type Report, type Reports } from './reports.ts';
import type { Account, AlertsRepository } from './repository.ts';

/** What the /set page shows a person: their account, where each channel reaches them, and the server's channels. */
export interface ChannelView {
  account: Account;
  reach: Awaited<ReturnType<Notifications['recipient']>>;
  channels: readonly ChannelName[];
}

export interface AlertsServiceDeps {
  db: Db;
  repo: AlertsRepository;
  reports: Reports;
  notifications: Notifications;
  timeZone: string;
}

const fmt = (v: number | null, unit = '') => (v === null ? '—' : `${v}${unit}`);

export const createAlertsService = ({
  db,
  repo,
  reports,
  notifications,
  timeZone,
}: AlertsServiceDeps) => {
  const reportOf = async (sn: string, type: 'date' | 'week', day: string) =>
    reports.report(await repo.reportedMachine(sn), type, day);

  /**
   * One report message per user for the period [first, last], a section per subscribed machine
   * they still see; once per user and period (the dedupe key), however often the job runs.
   */
  const sendReports = async (kind: 'daily' | 'week', first: string, last: string) => {
    const subscriptions = await repo.reportSubscriptions(kind);
    const byUser = new Map<number, (typeof subscriptions)[number]['machine'][]>();
    for (const { userId, machine } of subscriptions)
      byUser.set(userId, [...(byUser.get(userId) ?? []), machine]);
    const notices: Notice[] = [];
    for (const [userId, machines] of byUser) {
      const lines: string[] = [];
      for (const m of machines) {
        const d = deriveFigures(await reports.totals(m.sn, first, last));
        const alarms = await reports.topAlarms(m.sn, first, last);
        lines.push(
          `${m.sn} ${m.deviceName}：PPM ${fmt(d.ppm)}/${m.ppmTarget}，良率 ${fmt(d.yield, '%')}/${m.yieldTarget}%，` +
            `稼动率 ${fmt(d.useRate, '%')}/${m.useRateTarget}%，DT ${Math.round(d.dtSeconds / 60)}分钟，` +
            `报警 ${alarms.reduce((s, a) => s + a.times, 0)}次`,
        );
      }
      const sns = machines.map((m) => m.sn).join(',');
      const type = kind === 'daily' ? 'date' : 'week';
      notices.push({
        userId,
        kind,
        title: kind === 'daily' ? `日报 ${first}` : `周报 ${first} 至 ${last}`,
        body: lines.join('\n'),
        link: `/report?snCode=${encodeURIComponent(sns)}&alarmType=${type}&beginTime=${last}&isReport=1`,
        dedupeKey: `${kind}:${first}`,
        fields: {
          sn: sns,
          machine: machines.length === 1 ? machines[0]!.deviceName : `${machines.length}台机台`,
          content: first === last ? first : `${first}至${last}`,
        },
      });
    }
    await db.transaction().execute((tx) => notifications.notify(tx, notices));
    return notices.length;
  };

  return {
    /** The previous factory day's report, for a job run at `now` (08:00). */
    runDaily(now: number) {
      const yesterday = addDays(dayOf(now, timeZone), -1);
      return sendReports('daily', yesterday, yesterday);
    },

    /** The previous week's (Monday to Sunday) report, for a job run on a Monday at `now`. */
    runWeekly(now: number) {
      const today = dayOf(now, timeZone);
      return sendReports('week', addDays(today, -7), addDays(today, -1));
    },

    async report(
      device: DeviceInfo,
      q: z.output<typeof dailyOrWeeklyQuery>,
      now = Date.now(),
    ): Promise<Report> {
      const day = q.endTime || q.beginTime || addDays(dayOf(now, timeZone), -1);
      return reportOf(device.sn, q.alarmType, day);
    },

    async channelSettings(user: SessionUser): Promise<ChannelView> {
      const [reach, account] = await Promise.all([
        notifications.recipient(user.userId),
        repo.account(user.userId),
      ]);
      return { account, reach, channels: notifications.channels };
    },

    async saveChannels(user: SessionUser, body: z.output<typeof saveChannelsBody>) {
      const refusal = body.webhookUrl ? await notifications.webhookRefusal(body.webhookUrl) : null;
      if (refusal)
        throw new DomainError(
          ReplyCode.badInput,
          refusal === 'private' ? alertMessages.webhookPrivate : alertMessages.webhookUnresolved,
        );
      await repo.saveChannelChoices(user.userId, {
        wechat: body.wechat,
        dingtalk: body.dingtalk,
        webhookUrl: body.webhookUrl || null,
      });
    },
  };
};

export type AlertsService = ReturnType<typeof createAlertsService>;
