import type { Kysely } from 'kysely';
import type { Config } from '../foundation/config/config.ts';
import type { Database } from '../foundation/db/schema.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { WebhookTargets } from './channels/webhook-target.ts';
import type { Db } from '../foundation/db/database.ts';
import { createNotificationsRepository, type InboxPage, type Recipient } from './repository.ts';
import type { ChannelName, Notice } from './notice.ts';

/** The database or the caller's open transaction: a notice commits with the event that caused it. */
export type Executor = Kysely<Database>;

/**
 * Where a person is reached on each configured channel: from how they signed in (a WeChat openId,
 * a DingTalk user id) unless they turned it off on /set (no settings row: on), and the webhook
 * URL they gave.
 */
const targetOf = (channel: ChannelName, r: Recipient): string | null => {
  switch (channel) {
    case 'wechat':
      return r.wechat === false ? null : r.openId;
    case 'dingtalk':
      return r.dingtalk === false ? null : r.dingtalkUserId;
    case 'webhook':
      return r.webhookUrl;
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

export interface NotificationsOptions {
  /** The external channels this server is configured for (none: in-app only). */
  channels?: readonly ChannelName[];
  /** Where a webhook may go (the SSRF guard, docs/architecture.md decision 43). */
  webhookTargets?: WebhookTargets;
}

/**
 * The one way any domain tells a person something, and the person's inbox: a notice is written
 * with one outbox row per external channel that reaches them, which the outbox (outbox.ts)
 * delivers.
 */
export const createNotifications = (
  db: Db,
  { channels = [], webhookTargets = new WebhookTargets() }: NotificationsOptions = {},
) => {
  const repo = createNotificationsRepository(db);
  const listeners = new Set<() => void>();
  return {
    /** The external channels this server delivers through. */
    channels,

    /** Runs `listener` when outbox rows were written (seen once the writer commits). */
    onQueued(listener: () => void) {
      listeners.add(listener);
    },

    /**
     * Writes the notices in `executor` (pass the transaction of the cause), and for each new one
     * a row in the outbox per external channel the person gets; returns how many were new.
     */
    async notify(executor: Executor, notices: readonly Notice[]): Promise<number> {
      if (notices.length === 0) return 0;
      const written = await repo.insertNew(executor, notices);
      if (written.length > 0 && channels.length > 0) {
        const recipients = await repo.recipients(executor, [
          ...new Set(written.map((w) => w.userId)),
        ]);
        const byId = new Map(recipients.map((r) => [r.userId, r]));
        const deliveries = written.flatMap((w) =>
          channels.flatMap((channel) => {
            const recipient = byId.get(w.userId);
            const target = recipient ? targetOf(channel, recipient) : null;
            return target ? [{ notificationId: w.id, channel, target }] : [];
          }),
        );
        if (deliveries.length > 0) {
          await repo.queue(executor, deliveries);
          for (const listener of listeners) listener();
        }
      }
      return written.length;
    },

    /** Where each channel reaches this person (the /set page shows it). */
    async recipient(userId: number): Promise<Recipient> {
      const found = await repo.recipientOf(userId);
      if (!found) throw new Error(`no user ${userId}`);
      return found;
    },

    /** Why a webhook URL may not be used ('private', 'unresolved'), or null: it may. */
    webhookRefusal: (url: string) => webhookTargets.refusal(url),

    inbox: (user: SessionUser, pageNumber: number, pageSize: number): Promise<InboxPage> =>
      repo.inboxPage(user.userId, pageNumber, pageSize),

    unread: (user: SessionUser) => repo.unread(user.userId),

    /** Only the user's own messages: ids of others' match nothing. */
    markRead: (user: SessionUser, ids: readonly number[] | undefined, all: boolean) =>
      repo.markRead(user.userId, all ? null : (ids ?? [])),
  };
};

export type Notifications = ReturnType<typeof createNotifications>;
