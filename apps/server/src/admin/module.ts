import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { hear } from '../foundation/db/notices.ts';
import { createAdminRepository } from './repository.ts';
import { adminRoutes } from './routes.ts';
import { createAdminService } from './service.ts';

/**
 * Administration: users, applications, lines, groups, machines (with the .xlsx sheet) and the
 * audit log; admin-only routes (plugins/auth.ts `adminOnly`).
 */
export const adminModule = fp(
  async (app, { core }: { core: Core }) => {
    // A user's lines or rights changed: their open sockets ask again whether they may still see
    // what they stream — here at once, and when the notice comes from another instance or the
    // CLI (the writer of users and user_lines wires it; identity hears the same notice for its
    // sessions).
    const socketsAskAgain = (userIds: readonly number[] | null) =>
      void app.socketAuth.usersChanged(userIds);
    await hear(core.database, 'users_changed', (notice) => socketsAskAgain(notice?.users ?? null));
    const admin = createAdminService({
      repo: createAdminRepository(core.database.db),
      endUserSessions: (userId) => app.identity.endUserSessions(userId),
      userChanged: (userId) => {
        app.identity.usersChanged([userId]);
        socketsAskAgain([userId]);
      },
      reloadMachines: () => core.registry.changed(),
      tell: (mobile, text) => app.applications.tell(mobile, text),
    });
    await app.register(adminRoutes, { admin });
  },
  { name: 'admin', dependencies: ['identity', 'applications'] },
);
