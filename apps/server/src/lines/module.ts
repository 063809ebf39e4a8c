import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createLinesRepository } from './repository.ts';
import { linesRoutes } from './routes.ts';
import { createLinesService, type LinesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Lines and groups: the machines' places and the users' grants check against them. */
    lines: LinesService;
  }
}

/** Production lines and product groups, the only writer of their tables; admin-only routes. */
export const linesModule = fp(
  async (app, { core }: { core: Core }) => {
    const lines = createLinesService({
      repo: createLinesRepository(core.database.db),
      reloadMachines: () => core.registry.changed(),
    });
    await app.register(linesRoutes, { lines });
    app.decorate('lines', lines);
  },
  { name: 'lines' },
);
