import {
  accessReply,
  adminApplication,
  adminMessages,
  adminUser,
  approveBody,
  approveReply,
  auditEntry,
  auditQuery,
  createUserBody,
  disableUserBody,
  rejectBody,
  resetPasswordBody,
  updateUserBody,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { pageReply } from '@linewatch/contracts/paging';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, replySchema } from '../foundation/http/envelope.ts';
import { actorOf, adminOnly, userOf } from '../plugins/auth.ts';
import { presentApplication, presentAuditPage, presentUser } from './presenter.ts';
import type { UsersService } from './service.ts';

/**
 * Users, applications and the audit log. Every route here but `access` is for admins:
 * plugins/auth.ts answers anyone else 0403.
 */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (
  app,
  { users },
) => {
  app.get(
    adminApi.access.path,
    { schema: { response: replySchema(accessReply) } },
    async (request) => ok({ isAdmin: userOf(request).isAdmin }),
  );

  // users ------------------------------------------------------------------------------------
  app.get(
    adminApi.users.path,
    { config: adminOnly, schema: { response: replySchema(z.array(adminUser)) } },
    async () => ok((await users.users()).map(presentUser)),
  );
  app.post(
    adminApi.createUser.path,
    { config: adminOnly, schema: { body: createUserBody, response: replySchema(adminUser) } },
    async (request) =>
      ok(presentUser(await users.createUser(actorOf(request), request.body)), adminMessages.saved),
  );
  app.post(
    adminApi.updateUser.path,
    { config: adminOnly, schema: { body: updateUserBody, response: replySchema(adminUser) } },
    async (request) =>
      ok(presentUser(await users.updateUser(actorOf(request), request.body)), adminMessages.saved),
  );
  app.post(
    adminApi.disableUser.path,
    { config: adminOnly, schema: { body: disableUserBody, response: replySchema(adminUser) } },
    async (request) =>
      ok(
        presentUser(
          await users.setDisabled(actorOf(request), request.body.id, request.body.disabled),
        ),
        adminMessages.saved,
      ),
  );
  app.post(
    adminApi.resetPassword.path,
    { config: adminOnly, schema: { body: resetPasswordBody, response: replySchema(z.null()) } },
    async (request) => {
      await users.resetPassword(actorOf(request), request.body.id, request.body.password);
      return ok(null, adminMessages.saved);
    },
  );

  // applications -----------------------------------------------------------------------------
  app.get(
    adminApi.applications.path,
    { config: adminOnly, schema: { response: replySchema(z.array(adminApplication)) } },
    async () => ok((await users.applications()).map(presentApplication)),
  );
  app.post(
    adminApi.approve.path,
    { config: adminOnly, schema: { body: approveBody, response: replySchema(approveReply) } },
    async (request) => ok(await users.approve(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.reject.path,
    { config: adminOnly, schema: { body: rejectBody, response: replySchema(adminApplication) } },
    async (request) =>
      ok(
        presentApplication(await users.reject(actorOf(request), request.body)),
        adminMessages.saved,
      ),
  );

  // audit ------------------------------------------------------------------------------------
  app.get(
    adminApi.audit.path,
    {
      config: adminOnly,
      schema: { querystring: auditQuery, response: replySchema(pageReply(auditEntry)) },
    },
    async (request) =>
      ok(presentAuditPage(await users.audit(request.query.pageIndex, request.query.pageSize))),
  );
};
