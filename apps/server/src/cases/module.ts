import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createCasesRepository } from './repository.ts';
import { casesRoutes } from './routes.ts';
import { createCasesService, type CasesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    cases: CasesService;
  }
}

/** Troubleshooting cases for /faultAlarm; alarm messages link to them. */
export const casesModule = fp(
  async (app, { core }: { core: Core }) => {
    const cases = createCasesService(createCasesRepository(core.database.db));
    app.decorate('cases', cases);
    await app.register(casesRoutes, { cases });
  },
  { name: 'cases', dependencies: ['identity'] },
);
