import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createApplicationsRepository } from './repository.ts';
import { applicationsRoutes } from './routes.ts';
import { createApplicationsService, type ApplicationsService } from './service.ts';
import { createEmbeddedSmsChannel, type SmsChannel } from './sms.ts';

declare module 'fastify' {
  interface FastifyInstance {
    applications: ApplicationsService;
  }
}

/** Account applications (/userApply, /userAudit) and the SMS channel their codes go through. */
export const applicationsModule = fp(
  async (app, { core, sms }: { core: Core; sms?: SmsChannel }) => {
    const applications = createApplicationsService(
      createApplicationsRepository(core.database.db),
      sms ?? createEmbeddedSmsChannel(core.database.db, app.log),
    );
    app.decorate('applications', applications);
    await app.register(applicationsRoutes, { applications });
  },
  { name: 'applications', dependencies: ['identity'] },
);
