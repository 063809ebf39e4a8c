import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { announce, hear } from '../foundation/db/notices.ts';
import { createStatisticsRepository } from './repository.ts';
import { statisticsRoutes } from './routes.ts';
import { createStatisticsService } from './service.ts';
import { PastSums } from './past-sums.ts';

/** The device map and the statistics page: counts and figures over what a user may see. */
export const statisticsModule = fp(
  async (app, { core }: { core: Core }) => {
    const { db } = core.database;
    const pastSums = new PastSums(() => core.registry.version, core.cacheMaxAgeMs);
    // A flush of this instance wrote past days (after its commit: a notice lost in a crash
    // leaves the others' sums stale only until their age runs out)…
    core.live.onPastDayWritten((sns) => {
      for (const sn of sns) pastSums.forget(sn);
      announce(db, 'past_days_written', { sns: [...sns] }).catch((error: unknown) =>
        app.log.warn({ err: error }, 'telling the other instances about past days failed'),
      );
    });
    // … or another instance's did.
    await hear(core.database, 'past_days_written', (notice) => {
      if (notice === null) pastSums.forgetAll();
      else for (const sn of notice.sns) pastSums.forget(sn);
    });
    const statistics = createStatisticsService({
      repo: createStatisticsRepository(db),
      devices: app.devices,
      areaStatus: core.areaStatus,
      pastSums,
      timeZone: core.config.TIMEZONE,
    });
    await app.register(statisticsRoutes, { statistics });
  },
  { name: 'statistics', dependencies: ['devices'] },
);
