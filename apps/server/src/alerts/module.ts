import { Cron } from 'croner';
import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { configuredChannels } from '../notifications/service.ts';
import { buildChannels } from './channels/index.ts';
import { WebhookTargets } from './channels/webhook-target.ts';
import { AlertEngine } from './engine.ts';
import { Outbox } from './outbox.ts';
import { createReports } from './reports.ts';
import { createAlertsRepository } from './repository.ts';
import { alertsRoutes } from './routes.ts';
import { createAlertsService, type AlertsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    alerts: { service: AlertsService; engine: AlertEngine; outbox: Outbox };
  }
}

const DAY_MS = 86_400_000;

/**
 * Alert rules on the live state, the outbox worker that delivers to WeChat / DingTalk / webhooks,
 * the daily and weekly report jobs, and the inbox, channel settings and report routes.
 */
export const alertsModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config, registry } = core;
    const { db } = core.database;
    const repo = createAlertsRepository(db);
    const descriptions = await repo.alarmDescriptions();
    const description = (code: string) => descriptions.get(code) ?? null;
    const webhookTargets = new WebhookTargets(config.WEBHOOK_ALLOW_HOSTS);
    const service = createAlertsService({
      db,
      reports: createReports(db, config.TIMEZONE, description),
      notifications: app.notifications,
      channels: configuredChannels(config),
      webhookTargets,
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

    const publicUrl = config.PUBLIC_URL?.replace(/\/$/, '');
    const outbox = new Outbox(db, buildChannels(config, webhookTargets), app.log, {
      baseDelayMs: config.OUTBOX_RETRY_MS,
      urlOf: (link) => (link && publicUrl ? publicUrl + link : null),
    });
    app.notifications.onQueued(() => void outbox.kick());
    outbox.start();

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

    app.decorate('alerts', { service, engine, outbox });
    app.addHook('onClose', async () => {
      for (const job of reportJobs) job.stop();
      await outbox.close();
    });
    await app.register(alertsRoutes, { alerts: service });
  },
  {
    name: 'alerts',
    dependencies: ['identity', 'notifications', 'telemetry', 'cases', 'jobs', 'visibility'],
  },
);
