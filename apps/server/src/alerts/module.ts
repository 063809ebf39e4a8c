import { Cron } from 'croner';
import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { AlertEngine } from './engine.ts';
import { createReports } from './reports.ts';
import { createAlertsRepository } from './repository.ts';
import { alertsRoutes } from './routes.ts';
import { createAlertsService, type AlertsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    alerts: { service: AlertsService; engine: AlertEngine };
  }
}

const DAY_MS = 86_400_000;

/**
 * Alert rules on the live state, the daily and weekly report jobs, and the channel settings and
 * report routes; what they tell people goes through app.notifications.
 */
export const alertsModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config, registry } = core;
    const { db } = core.database;
    const repo = createAlertsRepository(db);
    const descriptions = await repo.alarmDescriptions();
    const description = (code: string) => descriptions.get(code) ?? null;
    const service = createAlertsService({
      db,
      repo,
      reports: createReports(repo, config.TIMEZONE, description),
      notifications: app.notifications,
      timeZone: config.TIMEZONE,
    });
    const engine = new AlertEngine({
      db,
      repo,
      notifications: app.notifications,
      deviceOf: (sn) => registry.get(sn),
      alarmDescription: description,
      caseIds: (executor) => app.cases.caseIds(executor),
    });
    app.ingestor.onFlush((tx, batch) => engine.judgeFlush(tx, batch));

    app.jobs.every({
      name: 'alerts-three-parameters',
      everyMs: 60_000,
      run: () => engine.checkShortfalls(Date.now()),
    });
    // croner says when (08:00 in the factory's zone); the jobs claim makes one instance run it.
    const reportJobs = [
      new Cron(config.DAILY_REPORT_CRON, { timezone: config.TIMEZONE }, () => {
        void app.jobs.runDue({
          name: 'report-daily',
          everyMs: DAY_MS,
          run: () => service.runDaily(Date.now()).then(() => undefined),
        });
      }),
      new Cron(config.WEEKLY_REPORT_CRON, { timezone: config.TIMEZONE }, () => {
        void app.jobs.runDue({
          name: 'report-weekly',
          everyMs: 7 * DAY_MS,
          run: () => service.runWeekly(Date.now()).then(() => undefined),
        });
      }),
    ];

    app.decorate('alerts', { service, engine });
    app.addHook('onClose', async () => {
      for (const job of reportJobs) job.stop();
    });
    await app.register(alertsRoutes, { alerts: service });
  },
  {
    name: 'alerts',
    dependencies: ['identity', 'notifications', 'telemetry', 'cases', 'jobs', 'visibility'],
  },
);
