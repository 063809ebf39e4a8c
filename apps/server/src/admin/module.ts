import fp from 'fastify-plugin';
import type { Core } from '../core.ts';
import { createAdminRepository } from './repository.ts';
import { adminRoutes } from './routes.ts';
import { createAdminService } from './service.ts';

/**
 * Administration: users, applications, lines, groups, machines (with the .xlsx sheet) and the
 * audit log; admin-only routes (plugins/auth.ts `adminOnly`).
 */
export const adminModule = fp(
  async (app, { core }: { core: Core }) => {
    const admin = createAdminService({
      repo: createAdminRepository(core.database.db),
      endUserSessions: (userId) => app.identity.endUserSessions(userId),
      userChanged: (userId) => app.identity.usersChanged([userId]),
      reloadMachines: () => core.registry.changed(),
      tell: (mobile, text) => app.applications.tell(mobile, text),
    });
    await app.register(adminRoutes, { admin });
  },
  { name: 'admin', dependencies: ['identity', 'applications'] },
);
