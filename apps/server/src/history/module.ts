import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createHistoryRepository } from './repository.ts';
import { historyRoutes } from './routes.ts';
import { createHistoryService } from './service.ts';

/** Device history (hour, day and week figures, DT, alarm TOP5) and the device log. */
export const historyModule = fp(
  async (app, { core }: { core: Core }) => {
    const history = createHistoryService({
      repo: createHistoryRepository(core.database.db, core.config.TIMEZONE),
      timeZone: core.config.TIMEZONE,
    });
    await app.register(historyRoutes, { history });
  },
  { name: 'history', dependencies: ['identity', 'devices', 'visibility'] },
);
