import {
  adminMachine,
  adminMessages,
  importBody,
  importReply,
  machineBody,
  machineListQuery,
  snBody,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { pageReply } from '@linewatch/contracts/paging';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, replySchema } from '../foundation/http/envelope.ts';
import { actorOf, adminOnly } from '../plugins/auth.ts';
import type { MachinesService } from './service.ts';

/** The administration of machines and their sheet: admins only (plugins/auth.ts answers others 0403). */
export const machinesRoutes: FastifyPluginAsyncZod<{ machines: MachinesService }> = async (
  app,
  { machines },
) => {
  app.get(
    adminApi.machines.path,
    {
      config: adminOnly,
      schema: { querystring: machineListQuery, response: replySchema(pageReply(adminMachine)) },
    },
    async (request) => {
      const { pageIndex, pageSize, ...filter } = request.query;
      return ok(await machines.machines(filter, pageIndex, pageSize));
    },
  );
  for (const [endpoint, mode] of [
    [adminApi.createMachine, 'create'],
    [adminApi.updateMachine, 'update'],
  ] as const) {
    app.post(
      endpoint.path,
      { config: adminOnly, schema: { body: machineBody, response: replySchema(adminMachine) } },
      async (request) =>
        ok(await machines.saveMachine(actorOf(request), request.body, mode), adminMessages.saved),
    );
  }
  app.post(
    adminApi.deleteMachine.path,
    { config: adminOnly, schema: { body: snBody, response: replySchema(z.null()) } },
    async (request) => {
      await machines.deleteMachine(actorOf(request), request.body.snCode);
      return ok(null, adminMessages.saved);
    },
  );
  app.post(
    adminApi.importMachines.path,
    {
      config: adminOnly,
      // base64 of a sheet of up to 5000 machines (importBody caps the text at 8 MiB)
      bodyLimit: 12 * 1024 * 1024,
      schema: { body: importBody, response: replySchema(importReply) },
    },
    async (request) =>
      ok(
        await machines.importMachines(actorOf(request), Buffer.from(request.body.file, 'base64')),
        adminMessages.saved,
      ),
  );
  app.get(adminApi.exportMachines.path, { config: adminOnly }, async (_request, response) => {
    const file = await machines.exportMachines();
    return response
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header(
        'content-disposition',
        'attachment; filename="machines.xlsx"; filename*=UTF-8\'\'%E6%9C%BA%E5%8F%B0.xlsx',
      )
      .header('cache-control', 'no-store')
      .send(file);
  });
};
