import fp from 'fastify-plugin';
import type { Config } from '../foundation/config/config.ts';
import { configuredChannels, createNotifications, type Notifications } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

/** The one way any domain tells a person something (service.ts). */
export const notificationsModule = fp(
  async (app, { config }: { config: Config }) => {
    app.decorate('notifications', createNotifications(configuredChannels(config)));
  },
  { name: 'notifications' },
);
