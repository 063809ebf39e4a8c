import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createMediaRepository } from './repository.ts';
import { mediaRoutes } from './routes.ts';
import { createMediaService, type MediaService } from './service.ts';
import { createDiskStorage } from './storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaService;
  }
}

/** Pictures and videos: uploads checked by content, stored under DATA_DIR, served safely. */
export const mediaModule = fp(
  async (app, { core }: { core: Core }) => {
    const media = createMediaService({
      repo: createMediaRepository(core.database.db),
      storage: createDiskStorage(core.config.DATA_DIR),
      canSeeMachine: async (user, sn) => (await app.checkMachine(user, sn)).ok,
    });
    app.decorate('media', media);
    app.jobs.every({
      name: 'media.cleanup',
      everyMs: 3_600_000,
      run: async () => {
        const removed = await media.cleanUp();
        if (removed.files + removed.staging > 0) app.log.info({ removed }, 'uploads cleaned up');
      },
    });
    await app.register(mediaRoutes, { media });
  },
  { name: 'media', dependencies: ['identity', 'visibility', 'jobs'] },
);
