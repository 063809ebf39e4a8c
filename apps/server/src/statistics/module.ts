import fp from 'fastify-plugin';
import type { Core } from '../core.ts';
import { createStatisticsRepository } from './repository.ts';
import { statisticsRoutes } from './routes.ts';
import { createStatisticsService } from './service.ts';
import { WholeDaySums } from './whole-day-sums.ts';

/** The device map and the statistics page: counts and figures over what a user may see. */
export const statisticsModule = fp(
  async (app, { core }: { core: Core }) => {
    const wholeDays = new WholeDaySums(() => core.registry.version);
    core.live.onPastDayWritten((sn) => wholeDays.forget(sn));
    const statistics = createStatisticsService({
      repo: createStatisticsRepository(core.database.db),
      devices: app.devices,
      wholeDays,
      timeZone: core.config.TIMEZONE,
    });
    await app.register(statisticsRoutes, { statistics });
  },
  { name: 'statistics', dependencies: ['devices'] },
);
