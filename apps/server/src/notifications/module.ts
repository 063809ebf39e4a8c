import fp from 'fastify-plugin';
import { createNotifications, type Notifications } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

/** The one way any domain tells a person something (service.ts). */
export const notificationsModule = fp(
  async (app) => {
    app.decorate('notifications', createNotifications());
  },
  { name: 'notifications' },
);
