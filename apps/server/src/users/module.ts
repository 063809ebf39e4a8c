import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { hear } from '../foundation/db/notices.ts';
import { createUsersRepository } from './repository.ts';
import { usersRoutes } from './routes.ts';
import { createUsersService } from './service.ts';

/**
 * Users, their lines, account approvals and the audit log's listing; admin-only routes
 * (plugins/auth.ts `adminOnly`) but `access`.
 */
export const usersModule = fp(
  async (app, { core }: { core: Core }) => {
    // A user's lines or rights changed: their open sockets ask again whether they may still see
    // what they stream — here at once, and when the notice comes from another instance or the
    // CLI (the writer of users and user_lines wires it; identity hears the same notice for its
    // sessions).
    const socketsAskAgain = (userIds: readonly number[] | null) =>
      void app.socketAuth.usersChanged(userIds);
    await hear(core.database, 'users_changed', (notice) => socketsAskAgain(notice?.users ?? null));
    const users = createUsersService({
      repo: createUsersRepository(core.database.db),
      lines: app.lines,
      endUserSessions: (userId) => app.identity.endUserSessions(userId),
      userChanged: (userId) => {
        app.identity.usersChanged([userId]);
        socketsAskAgain([userId]);
      },
      applications: app.applications,
    });
    await app.register(usersRoutes, { users });
  },
  { name: 'users', dependencies: ['identity', 'applications', 'lines'] },
);
