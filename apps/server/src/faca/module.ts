import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createFacaRepository } from './repository.ts';
import { facaRoutes } from './routes.ts';
import { createFacaService, type FacaService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    faca: FacaService;
  }
}

/** FACA questions, FA, CA and tasks; attachments through the media module. */
export const facaModule = fp(
  async (app, { core }: { core: Core }) => {
    const faca = createFacaService({
      db: core.database.db,
      repo: createFacaRepository(core.database.db),
      media: app.media,
      notifications: app.notifications,
      checkMachine: app.checkMachine,
      visibleLineIds: app.devices.visibleLineIds,
      now: Date.now,
      timeZone: core.config.TIMEZONE,
    });
    app.decorate('faca', faca);
    await app.register(facaRoutes, { faca });
  },
  { name: 'faca', dependencies: ['media', 'notifications', 'devices', 'visibility'] },
);
