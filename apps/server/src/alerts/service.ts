import type {
  ChannelSettings,
  InboxReply,
  ReportReply,
  dailyOrWeeklyQuery,
  saveChannelsBody,
} from '@linewatch/contracts/alerts';
import { alertMessages } from '@linewatch/contracts/alerts';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../foundation/db/database.ts';
import type { DeviceInfo } from '../core/device-registry.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import {
  withChannels,
  type ChannelName,
  type Notice,
  type Notifications,
} from '../notifications/service.ts';
import { dayOf } from '../foundation/shared/time.ts';
import { addDays, type Reports } from './reports.ts';
import type { WebhookTargets } from './channels/webhook-target.ts';

export interface AlertsServiceDeps {
  db: Db;
  reports: Reports;
  notifications: Notifications;
  channels: readonly ChannelName[];
  /** Where a webhook may go (SSRF guard), checked when a person saves one. */
  webhookTargets: WebhookTargets;
  timeZone: string;
}

const fmt = (v: number | null, unit = '') => (v === null ? '—' : `${v}${unit}`);

export const createAlertsService = ({
  db,
  reports,
  notifications,
  channels,
  webhookTargets,
  timeZone,
}: AlertsServiceDeps) => {
  const targetsOf = (sn: string) =>
    db
      .selectFrom('devices')
      .select([
        'sn_code',
        'nick_sn_code',
        'device_name',
        'ppm_target',
        'yield_target',
        'use_rate_target',
      ])
      .where('sn_code', '=', sn)
      .executeTakeFirstOrThrow();

  const reportOf = async (sn: string, type: 'date' | 'week', day: string) => {
    const d = await targetsOf(sn);
    return reports.report(
      {
        sn,
        nickSnCode: d.nick_sn_code,
        deviceName: d.device_name,
        ppmTarget: d.ppm_target,
        yieldTarget: d.yield_target,
        useRateTarget: d.use_rate_target,
      },
      type,
      day,
    );
  };

  /**
   * One report message per user for the period [first, last], a section per subscribed machine
   * they still see; once per user and period (the dedupe key), however often the job runs.
   */
  const sendReports = async (kind: 'daily' | 'week', first: string, last: string) => {
    const column = kind === 'daily' ? 'daily' : 'week';
    const follows = await sql<{
      user_id: number;
      sn_code: string;
      device_name: string;
      ppm_target: number;
      yield_target: number;
      use_rate_target: number;
    }>`
      select uf.user_id, d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target
      from user_follows uf join users u on u.id = uf.user_id join devices d on d.sn_code = uf.sn_code
      where ${sql.ref(`uf.${column}`)} and (u.is_admin or exists (
        select 1 from user_lines ul where ul.user_id = uf.user_id and ul.line_id = d.line_id))
      order by uf.user_id, d.sn_code`.execute(db);
    const byUser = new Map<number, typeof follows.rows>();
    for (const f of follows.rows) byUser.set(f.user_id, [...(byUser.get(f.user_id) ?? []), f]);
    const notices: Notice[] = [];
    for (const [userId, machines] of byUser) {
      const lines: string[] = [];
      for (const m of machines) {
        const d = deriveFigures(await reports.totals(m.sn_code, first, last));
        const alarms = await reports.topAlarms(m.sn_code, first, last);
        lines.push(
          `${m.sn_code} ${m.device_name}：PPM ${fmt(d.ppm)}/${m.ppm_target}，良率 ${fmt(d.yield, '%')}/${m.yield_target}%，` +
            `稼动率 ${fmt(d.useRate, '%')}/${m.use_rate_target}%，DT ${Math.round(d.dtSeconds / 60)}分钟，` +
            `报警 ${alarms.reduce((s, a) => s + a.times, 0)}次`,
        );
      }
      const sns = machines.map((m) => m.sn_code).join(',');
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
          machine: machines.length === 1 ? machines[0]!.device_name : `${machines.length}台机台`,
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
    ): Promise<ReportReply> {
      const day = q.endTime || q.beginTime || addDays(dayOf(now, timeZone), -1);
      return reportOf(device.sn, q.alarmType, day);
    },

    async inbox(user: SessionUser, pageNumber: number, pageSize: number): Promise<InboxReply> {
      const [rows, counts] = await Promise.all([
        db
          .selectFrom('notifications')
          .select([
            'id',
            'kind',
            'title',
            'body',
            'link',
            'created_at',
            'read_at',
            'alarm_sn_code',
            'alarm_content',
          ])
          .where('user_id', '=', user.userId)
          .orderBy('id', 'desc')
          .limit(pageSize)
          .offset((pageNumber - 1) * pageSize)
          .execute(),
        sql<{ total: number; unread: number }>`
          select count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
          from notifications where user_id = ${user.userId}`.execute(db),
      ]);
      return {
        data: rows.map((r) => ({
          id: Number(r.id),
          kind: r.kind,
          title: r.title,
          body: r.body,
          link: r.link,
          createdAt: new Date(r.created_at).toISOString(),
          read: r.read_at !== null,
          alarm:
            r.alarm_sn_code === null
              ? null
              : { snCode: r.alarm_sn_code, warningContent: r.alarm_content ?? '' },
        })),
        totalNum: counts.rows[0]?.total ?? 0,
        unread: counts.rows[0]?.unread ?? 0,
      };
    },

    async unread(user: SessionUser): Promise<number> {
      const row = await sql<{ n: number }>`select count(*)::int as n from notifications
        where user_id = ${user.userId} and read_at is null`.execute(db);
      return row.rows[0]?.n ?? 0;
    },

    /** Only the user's own messages: ids of others' match nothing. */
    async markRead(user: SessionUser, ids: number[] | undefined, all: boolean) {
      let q = db
        .updateTable('notifications')
        .set({ read_at: new Date() })
        .where('user_id', '=', user.userId)
        .where('read_at', 'is', null);
      if (!all) q = q.where('id', 'in', ids ?? []);
      await q.execute();
    },

    async channelSettings(user: SessionUser): Promise<ChannelSettings> {
      const row = await withChannels(db)
        .select(['u.psn_code', 'u.name', 'u.nick_name', 'u.mobile'])
        .where('u.id', '=', user.userId)
        .executeTakeFirstOrThrow();
      return {
        wechatAvailable: channels.includes('wechat') && row.open_id !== null,
        dingtalkAvailable: channels.includes('dingtalk') && row.dingding_user_id !== null,
        webhookAvailable: channels.includes('webhook'),
        wechat: row.wechat ?? true,
        dingtalk: row.dingtalk ?? true,
        webhookUrl: row.webhook_url,
        account: {
          psnCode: row.psn_code,
          name: row.name,
          nickName: row.nick_name,
          mobile: row.mobile,
          wechatBound: row.open_id !== null,
          dingtalkBound: row.dingding_user_id !== null,
        },
      };
    },

    async saveChannels(user: SessionUser, body: z.output<typeof saveChannelsBody>) {
      const refusal = body.webhookUrl ? await webhookTargets.refusal(body.webhookUrl) : null;
      if (refusal)
        throw new DomainError(
          ReplyCode.badInput,
          refusal === 'private' ? alertMessages.webhookPrivate : alertMessages.webhookUnresolved,
        );
      const values = {
        wechat: body.wechat,
        dingtalk: body.dingtalk,
        webhook_url: body.webhookUrl || null,
      };
      await db
        .insertInto('notification_settings')
        .values({ user_id: user.userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },
  };
};

export type AlertsService = ReturnType<typeof createAlertsService>;
