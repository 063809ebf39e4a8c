import type { Kysely } from 'kysely';
import type { Config } from '../foundation/config/config.ts';
import type { Database } from '../foundation/db/schema.ts';

/** An alarm as the FACA question form takes it: the machine and the alarm content. */
interface AlarmSubject {
  snCode: string;
  warningContent: string;
}

/**
 * A message's facts, short, apart from its text: what a WeChat template shows, one field each of
 * at most 20 characters (alerts/channels/wechat-template.ts).
 */
export interface NoticeFields {
  /** The machine's SN, or the machines' SNs comma-separated. */
  sn?: string;
  /** The machine as people call it (nickname, else device name), or how many machines. */
  machine?: string;
  /** What happened, in a few words: "E101 送料超时", "故障停机超过5分钟". */
  content?: string;
}

/** One message for one person. */
export interface Notice {
  userId: number;
  /** What caused it, for filtering and channels: 'alarm', 'daily', 'faca-task', … */
  kind: string;
  title: string;
  body: string;
  /** An app path that opens what the message is about (shared/paths.ts on the web side). */
  link?: string | null;
  /**
   * The event's identity for this user, e.g. `alarm:LW-S1-002:E101:<episode start>`: a notice
   * whose (userId, dedupeKey) exists already is not written again, so a retried or replayed
   * cause tells nobody twice.
   */
  dedupeKey: string;
  /** The alarm a message is about (kind 'alarm'): the inbox offers to start a FACA question. */
  alarm?: AlarmSubject | null;
  fields?: NoticeFields;
}

/** The database or the caller's open transaction: a notice commits with the event that caused it. */
export type Executor = Kysely<Database>;

export interface Notifications {
  /**
   * Writes the notices in `executor` (pass the transaction of the cause), and for each new one a
   * row in the outbox per external channel the person gets; returns how many were new.
   */
  notify(executor: Executor, notices: readonly Notice[]): Promise<number>;
  /** Runs `listener` when outbox rows were written (seen once the writer commits). */
  onQueued(listener: () => void): void;
}

/** The external channels (alerts/channels/); the in-app inbox is the notifications row itself. */
export type ChannelName = 'wechat' | 'dingtalk' | 'webhook';

interface Recipient {
  id: number;
  open_id: string | null;
  dingding_user_id: string | null;
  wechat: boolean | null;
  dingtalk: boolean | null;
  webhook_url: string | null;
}

/**
 * Where a person is reached on each configured channel: from how they signed in (a WeChat openId,
 * a DingTalk user id) unless they turned it off on /set (no settings row: on), and the webhook
 * URL they gave.
 */
/**
 * Users with where each channel reaches them: their messaging identities and their /set choices
 * (null where they never chose). The outbox and the /set page read the same rows.
 */
export const withChannels = (executor: Executor) =>
  executor
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
    ]);

const targetOf = (channel: ChannelName, r: Recipient): string | null => {
  switch (channel) {
    case 'wechat':
      return r.wechat === false ? null : r.open_id;
    case 'dingtalk':
      return r.dingtalk === false ? null : r.dingding_user_id;
    case 'webhook':
      return r.webhook_url;
  }
};

/** The external channels whose credentials the configuration holds. */
export const configuredChannels = (config: Config): ChannelName[] => [
  ...(config.WECHAT_APPID && config.WECHAT_SECRET && config.WECHAT_TEMPLATES
    ? (['wechat'] as const)
    : []),
  ...(config.DINGTALK_APPKEY && config.DINGTALK_APPSECRET && config.DINGTALK_AGENT_ID
    ? (['dingtalk'] as const)
    : []),
  ...(config.WEBHOOK_SECRET ? (['webhook'] as const) : []),
];

/** `channels`: the external channels this server is configured for (none: in-app only). */
export const createNotifications = (channels: readonly ChannelName[] = []): Notifications => {
  const listeners = new Set<() => void>();
  return {
    onQueued: (listener) => listeners.add(listener),
    async notify(executor, notices) {
      if (notices.length === 0) return 0;
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
      if (written.length > 0 && channels.length > 0) {
        const recipients = await withChannels(executor)
          .where('u.id', 'in', [...new Set(written.map((w) => w.user_id))])
          .execute();
        const byId = new Map(recipients.map((r) => [r.id, r]));
        const rows = written.flatMap((w) =>
          channels.flatMap((channel) => {
            const recipient = byId.get(w.user_id);
            const target = recipient ? targetOf(channel, recipient) : null;
            return target ? [{ notification_id: w.id, channel, target }] : [];
          }),
        );
        if (rows.length > 0) {
          await executor
            .insertInto('outbox')
            .values(rows)
            .onConflict((oc) => oc.columns(['notification_id', 'channel']).doNothing())
            .execute();
          for (const listener of listeners) listener();
        }
      }
      return written.length;
    },
  };
};
