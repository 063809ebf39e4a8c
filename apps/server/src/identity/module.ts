import fp from 'fastify-plugin';
import type { Core } from '../core.ts';
import { authPlugin } from '../plugins/auth.ts';
import { createIdentityRepository } from './repository.ts';
import { identityRoutes } from './routes.ts';
import { createIdentityService, type IdentityService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityService;
  }
}

/**
 * Sign-in and sessions. Registers the auth plugin with its service before any route, so every
 * /api route registered after it (this module's and the later modules') needs a keyId.
 */
export const identityModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config } = core;
    const identity = createIdentityService(
      createIdentityRepository(core.database.db),
      config.SESSION_TTL_HOURS * 3_600_000,
    );
    app.decorate('identity', identity);
    await app.register(authPlugin, { identity });
    app.jobs.every({
      name: 'identity.purge-expired-sessions',
      everyMs: 3_600_000,
      run: async () => void (await identity.purgeExpiredSessions()),
    });
    await app.register(identityRoutes, {
      identity,
      secureCookie: config.PUBLIC_URL?.startsWith('https:') ?? false,
    });
  },
  { name: 'identity', dependencies: ['jobs'] },
);
