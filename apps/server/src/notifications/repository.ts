import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type { ChannelName, Notice, NoticeFields } from './notice.ts';

/**
 * Where each channel reaches a person: their messaging identities and their /set choices (null
 * where they never chose; alerts/ writes notification_settings).
 */
export interface Recipient {
  userId: number;
  openId: string | null;
  dingtalkUserId: string | null;
  wechat: boolean | null;
  dingtalk: boolean | null;
  webhookUrl: string | null;
}

/** A notice in a person's inbox (/messages). */
export interface InboxMessage {
  id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  createdAt: Date;
  readAt: Date | null;
  alarmSnCode: string | null;
  alarmContent: string | null;
}

/** A page of a person's inbox, with their total and unread counts. */
export interface InboxPage {
  messages: InboxMessage[];
  total: number;
  unread: number;
}

/** An outbox row claimed by a worker, with the message it carries. */
export interface ClaimedDelivery {
  id: string;
  /** 'pending': to send; 'accepted': sent, its receipt to confirm. */
  status: 'pending' | 'accepted';
  receipt: string | null;
  acceptedAt: Date | null;
  channel: string;
  target: string;
  attempts: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  fields: NoticeFields;
  createdAt: Date;
}

/** What a delivery attempt leaves in its row; the lease always ends with it. */
export interface DeliveryOutcome {
  status?: 'pending' | 'accepted' | 'sent' | 'failed';
  receipt?: string;
  acceptedAt?: Date;
  sentAt?: Date;
  nextAttemptAt?: Date;
  lastError: string | null;
}

/** Undelivered rows of one channel: due now, or waiting out a retry's backoff. */
export interface OutboxBacklog {
  channel: string;
  due: number;
  waiting: number;
}

/** Notify and the /set page read the same rows: one rule for where a person is reached. */
const recipients = async (executor: Db, userIds: readonly number[]): Promise<Recipient[]> => {
  if (userIds.length === 0) return [];
  const rows = await executor
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .leftJoin('user_identities as wx', (j) =>
      j.onRef('wx.user_id', '=', 'u.id').on('wx.provider', '=', 'wechat'),
    )
    .leftJoin('user_identities as dd', (j) =>
      j.onRef('dd.user_id', '=', 'u.id').on('dd.provider', '=', 'dingtalk'),
    )
    .select([
      'u.id',
      'wx.subject as open_id',
      'dd.subject as dingding_user_id',
      's.wechat',
      's.dingtalk',
      's.webhook_url',
    ])
    .where('u.id', 'in', [...userIds])
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    openId: r.open_id,
    dingtalkUserId: r.dingding_user_id,
    wechat: r.wechat,
    dingtalk: r.dingtalk,
    webhookUrl: r.webhook_url,
  }));
};

/** Every query on `notifications` and `outbox`. `executor`: the caller's transaction, or the database. */
export const createNotificationsRepository = (db: Db) => ({
  /** Writes the notices not written before for their (user, dedupe key); returns the new ones. */
  async insertNew(executor: Db, notices: readonly Notice[]) {
    const written = await executor
      .insertInto('notifications')
      .values(
        notices.map((n) => ({
          user_id: n.userId,
          kind: n.kind,
          title: n.title,
          body: n.body,
          link: n.link ?? null,
          dedupe_key: n.dedupeKey,
          alarm_sn_code: n.alarm?.snCode ?? null,
          alarm_content: n.alarm?.warningContent ?? null,
          fields: JSON.stringify(n.fields ?? {}),
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
      .returning(['id', 'user_id'])
      .execute();
    return written.map((w) => ({ id: w.id, userId: w.user_id }));
  },

  recipients,

  async recipientOf(userId: number): Promise<Recipient | undefined> {
    const [found] = await recipients(db, [userId]);
    return found;
  },

  /** One outbox row per (notification, channel): a second write of the pair is ignored. */
  async queue(
    executor: Db,
    deliveries: readonly { notificationId: number; channel: ChannelName; target: string }[],
  ) {
    await executor
      .insertInto('outbox')
      .values(
        deliveries.map((d) => ({
          notification_id: d.notificationId,
          channel: d.channel,
          target: d.target,
        })),
      )
      .onConflict((oc) => oc.columns(['notification_id', 'channel']).doNothing())
      .execute();
  },

  async inboxPage(userId: number, pageNumber: number, pageSize: number): Promise<InboxPage> {
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
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((pageNumber - 1) * pageSize)
        .execute(),
      sql<{ total: number; unread: number }>`
        select count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
        from notifications where user_id = ${userId}`.execute(db),
    ]);
    const messages: InboxMessage[] = rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      createdAt: new Date(r.created_at),
      readAt: r.read_at,
      alarmSnCode: r.alarm_sn_code,
      alarmContent: r.alarm_content,
    }));
    return { messages, total: counts.rows[0]?.total ?? 0, unread: counts.rows[0]?.unread ?? 0 };
  },

  async unread(userId: number): Promise<number> {
    const row = await sql<{ n: number }>`select count(*)::int as n from notifications
      where user_id = ${userId} and read_at is null`.execute(db);
    return row.rows[0]?.n ?? 0;
  },

  /** `ids` null: all of the user's unread messages. */
  async markRead(userId: number, ids: readonly number[] | null) {
    let q = db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (ids !== null) q = q.where('id', 'in', [...ids]);
    await q.execute();
  },

  /**
   * Claims up to `batch` due rows of these channels: FOR UPDATE SKIP LOCKED, then a lease in the
   * row until `leaseEnd`, so two instances never hold one row. A pending row's attempt is counted.
   */
  async claimDue(
    channels: readonly string[],
    now: Date,
    leaseEnd: Date,
    batch: number,
  ): Promise<ClaimedDelivery[]> {
    const claimed = await sql<{
      id: string;
      status: 'pending' | 'accepted';
      receipt: string | null;
      accepted_at: Date | null;
      channel: string;
      target: string;
      attempts: number;
      kind: string;
      title: string;
      body: string;
      link: string | null;
      fields: NoticeFields | null;
      created_at: Date;
    }>`
      WITH due AS (
        SELECT id FROM outbox
        WHERE status IN ('pending', 'accepted') AND next_attempt_at <= ${now}
          AND (locked_until IS NULL OR locked_until < ${now})
          AND channel IN (${sql.join(channels)})
        ORDER BY id LIMIT ${batch}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE outbox o SET locked_until = ${leaseEnd},
        attempts = o.attempts + CASE WHEN o.status = 'pending' THEN 1 ELSE 0 END
      FROM due, notifications n
      WHERE o.id = due.id AND n.id = o.notification_id
      RETURNING o.id, o.status, o.receipt, o.accepted_at, o.channel, o.target, o.attempts,
        n.kind, n.title, n.body, n.link, n.fields, n.created_at`.execute(db);
    return claimed.rows.map((r) => ({
      id: r.id,
      status: r.status,
      receipt: r.receipt,
      acceptedAt: r.accepted_at ? new Date(r.accepted_at) : null,
      channel: r.channel,
      target: r.target,
      attempts: r.attempts,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      fields: r.fields ?? {},
      createdAt: new Date(r.created_at),
    }));
  },

  /** Records what became of a claimed row and ends its lease. */
  async release(id: string, outcome: DeliveryOutcome) {
    await db
      .updateTable('outbox')
      .set({
        ...(outcome.status && { status: outcome.status }),
        ...(outcome.receipt !== undefined && { receipt: outcome.receipt }),
        ...(outcome.acceptedAt && { accepted_at: outcome.acceptedAt }),
        ...(outcome.sentAt && { sent_at: outcome.sentAt }),
        ...(outcome.nextAttemptAt && { next_attempt_at: outcome.nextAttemptAt }),
        locked_until: null,
        last_error: outcome.lastError,
      })
      .where('id', '=', id)
      .execute();
  },

  /** Reads only the partial index of pending rows (outbox_due_idx), however many were sent. */
  async backlog(now: Date): Promise<OutboxBacklog[]> {
    const { rows } = await sql<OutboxBacklog>`
      SELECT channel,
        (count(*) FILTER (WHERE next_attempt_at <= ${now}))::int AS due,
        (count(*) FILTER (WHERE next_attempt_at > ${now}))::int AS waiting
      FROM outbox WHERE status = 'pending' GROUP BY channel`.execute(db);
    return rows;
  },
});

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
