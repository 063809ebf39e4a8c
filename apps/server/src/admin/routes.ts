import {
  accessReply,
  adminApplication,
  adminLine,
  adminMachine,
  adminMessages,
  adminUser,
  approveBody,
  approveReply,
  auditEntry,
  auditQuery,
  createUserBody,
  disableUserBody,
  idBody,
  importBody,
  importReply,
  machineBody,
  machineListQuery,
  rejectBody,
  resetPasswordBody,
  saveGroupBody,
  saveLineBody,
  snBody,
  updateUserBody,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import { pageReply } from '@linewatch/contracts/paging';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { Actor, AdminService } from './service.ts';

// Every route here but `access` is for admins: plugins/auth.ts answers anyone else 0403.
const adminOnly = { adminOnly: true } as const;
const reply = <T extends z.ZodType>(data: T) => ({ 200: envelopeSchema(data) });
const actorOf = (request: FastifyRequest): Actor => {
  const user = userOf(request);
  return { id: user.userId, name: user.name };
};

export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminService }> = async (
  app,
  { admin },
) => {
  app.get(adminApi.access.path, { schema: { response: reply(accessReply) } }, async (request) =>
    ok({ isAdmin: userOf(request).isAdmin }),
  );

  // users ------------------------------------------------------------------------------------
  app.get(
    adminApi.users.path,
    { config: adminOnly, schema: { response: reply(z.array(adminUser)) } },
    async () => ok(await admin.users()),
  );
  app.post(
    adminApi.createUser.path,
    { config: adminOnly, schema: { body: createUserBody, response: reply(adminUser) } },
    async (request) =>
      ok(await admin.createUser(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.updateUser.path,
    { config: adminOnly, schema: { body: updateUserBody, response: reply(adminUser) } },
    async (request) =>
      ok(await admin.updateUser(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.disableUser.path,
    { config: adminOnly, schema: { body: disableUserBody, response: reply(adminUser) } },
    async (request) =>
      ok(
        await admin.setDisabled(actorOf(request), request.body.id, request.body.disabled),
        adminMessages.saved,
      ),
  );
  app.post(
    adminApi.resetPassword.path,
    { config: adminOnly, schema: { body: resetPasswordBody, response: reply(z.null()) } },
    async (request) => {
      await admin.resetPassword(actorOf(request), request.body.id, request.body.password);
      return ok(null, adminMessages.saved);
    },
  );

  // applications -----------------------------------------------------------------------------
  app.get(
    adminApi.applications.path,
    { config: adminOnly, schema: { response: reply(z.array(adminApplication)) } },
    async () => ok(await admin.applications()),
  );
  app.post(
    adminApi.approve.path,
    { config: adminOnly, schema: { body: approveBody, response: reply(approveReply) } },
    async (request) => ok(await admin.approve(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.reject.path,
    { config: adminOnly, schema: { body: rejectBody, response: reply(adminApplication) } },
    async (request) => ok(await admin.reject(actorOf(request), request.body), adminMessages.saved),
  );

  // lines and groups -------------------------------------------------------------------------
  app.get(
    adminApi.lines.path,
    { config: adminOnly, schema: { response: reply(z.array(adminLine)) } },
    async () => ok(await admin.lines()),
  );
  app.post(
    adminApi.saveLine.path,
    { config: adminOnly, schema: { body: saveLineBody, response: reply(adminLine) } },
    async (request) =>
      ok(await admin.saveLine(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.deleteLine.path,
    { config: adminOnly, schema: { body: idBody, response: reply(z.null()) } },
    async (request) => {
      await admin.deleteLine(actorOf(request), request.body.id);
      return ok(null, adminMessages.saved);
    },
  );
  app.post(
    adminApi.saveGroup.path,
    { config: adminOnly, schema: { body: saveGroupBody, response: reply(adminLine) } },
    async (request) =>
      ok(await admin.saveGroup(actorOf(request), request.body), adminMessages.saved),
  );
  app.post(
    adminApi.deleteGroup.path,
    { config: adminOnly, schema: { body: idBody, response: reply(z.null()) } },
    async (request) => {
      await admin.deleteGroup(actorOf(request), request.body.id);
      return ok(null, adminMessages.saved);
    },
  );

  // machines ---------------------------------------------------------------------------------
  app.get(
    adminApi.machines.path,
    {
      config: adminOnly,
      schema: { querystring: machineListQuery, response: reply(pageReply(adminMachine)) },
    },
    async (request) => {
      const { pageIndex, pageSize, ...filter } = request.query;
      return ok(await admin.machines(filter, pageIndex, pageSize));
    },
  );
  for (const [endpoint, mode] of [
    [adminApi.createMachine, 'create'],
    [adminApi.updateMachine, 'update'],
  ] as const) {
    app.post(
      endpoint.path,
      { config: adminOnly, schema: { body: machineBody, response: reply(adminMachine) } },
      async (request) =>
        ok(await admin.saveMachine(actorOf(request), request.body, mode), adminMessages.saved),
    );
  }
  app.post(
    adminApi.deleteMachine.path,
    { config: adminOnly, schema: { body: snBody, response: reply(z.null()) } },
    async (request) => {
      await admin.deleteMachine(actorOf(request), request.body.snCode);
      return ok(null, adminMessages.saved);
    },
  );
  app.post(
    adminApi.importMachines.path,
    {
      config: adminOnly,
      // base64 of a sheet of up to 5000 machines (importBody caps the text at 8 MiB)
      bodyLimit: 12 * 1024 * 1024,
      schema: { body: importBody, response: reply(importReply) },
    },
    async (request) =>
      ok(
        await admin.importMachines(actorOf(request), Buffer.from(request.body.file, 'base64')),
        adminMessages.saved,
      ),
  );
  app.get(adminApi.exportMachines.path, { config: adminOnly }, async (_request, response) => {
    const file = await admin.exportMachines();
    return response
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        'attachment; filename="machines.xlsx"; filename*=UTF-8\'\'%E6%9C%BA%E5%8F%B0.xlsx',
      )
      .header('cache-control', 'no-store')
      .send(file);
  });

  // audit ------------------------------------------------------------------------------------
  app.get(
    adminApi.audit.path,
    {
      config: adminOnly,
      schema: { querystring: auditQuery, response: reply(pageReply(auditEntry)) },
    },
    async (request) => ok(await admin.audit(request.query.pageIndex, request.query.pageSize)),
  );
};
