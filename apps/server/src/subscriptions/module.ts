import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createSubscriptionsRepository } from './repository.ts';
import { subscriptionsRoutes } from './routes.ts';
import { createSubscriptionsService } from './service.ts';

/** Follows and their settings: what the alert engine and the report jobs read. */
export const subscriptionsModule = fp(
  async (app, { core }: { core: Core }) => {
    const subscriptions = createSubscriptionsService({
      repo: createSubscriptionsRepository(core.database.db),
      devices: app.devices,
    });
    await app.register(subscriptionsRoutes, { subscriptions });
  },
  { name: 'subscriptions', dependencies: ['identity', 'devices'] },
);
