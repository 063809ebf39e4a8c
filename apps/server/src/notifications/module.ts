import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { buildChannels } from './channels/index.ts';
import { WebhookTargets } from './channels/webhook-target.ts';
import { Outbox } from './outbox.ts';
import { createNotificationsRepository } from './repository.ts';
import { notificationsRoutes } from './routes.ts';
import { configuredChannels, createNotifications, type Notifications } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
    /** The delivery worker; app.ts hands its counts to the metrics. */
    outbox: Outbox;
  }
}

/**
 * The one way any domain tells a person something (service.ts), its delivery to WeChat /
 * DingTalk / webhooks by the outbox worker (outbox.ts, channels/), and the inbox routes.
 */
export const notificationsModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config } = core;
    const { db } = core.database;
    const repo = createNotificationsRepository(db);
    const webhookTargets = new WebhookTargets(config.WEBHOOK_ALLOW_HOSTS);
    const notifications = createNotifications(db, {
      channels: configuredChannels(config),
      webhookTargets,
    });
    const publicUrl = config.PUBLIC_URL?.replace(/\/$/, '');
    const outbox = new Outbox(repo, buildChannels(config, webhookTargets), app.log, {
      baseDelayMs: config.OUTBOX_RETRY_MS,
      urlOf: (link) => (link && publicUrl ? publicUrl + link : null),
    });
    notifications.onQueued(() => void outbox.kick());
    outbox.start();

    app.decorate('notifications', notifications);
    app.decorate('outbox', outbox);
    app.addHook('onClose', () => outbox.close());
    await app.register(notificationsRoutes, { notifications });
  },
  { name: 'notifications', dependencies: ['identity'] },
);
