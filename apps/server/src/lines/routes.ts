import {
  adminLine,
  adminMessages,
  idBody,
  saveGroupBody,
  saveLineBody,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, replySchema } from '../foundation/http/envelope.ts';
import { actorOf, adminOnly } from '../plugins/auth.ts';
import { presentLine } from './presenter.ts';
import type { LinesService } from './service.ts';

/** The administration of lines and groups: admins only (plugins/auth.ts answers others 0403). */
export const linesRoutes: FastifyPluginAsyncZod<{ lines: LinesService }> = async (
  app,
  { lines },
) => {
  app.get(
    adminApi.lines.path,
    { config: adminOnly, schema: { response: replySchema(z.array(adminLine)) } },
    async () => ok((await lines.lines()).map(presentLine)),
  );
  app.post(
    adminApi.saveLine.path,
    { config: adminOnly, schema: { body: saveLineBody, response: replySchema(adminLine) } },
    async (request) =>
      ok(presentLine(await lines.saveLine(actorOf(request), request.body)), adminMessages.saved),
  );
  app.post(
    adminApi.deleteLine.path,
    { config: adminOnly, schema: { body: idBody, response: replySchema(z.null()) } },
    async (request) => {
      await lines.deleteLine(actorOf(request), request.body.id);
      return ok(null, adminMessages.saved);
    },
  );
  app.post(
    adminApi.saveGroup.path,
    { config: adminOnly, schema: { body: saveGroupBody, response: replySchema(adminLine) } },
    async (request) =>
      ok(presentLine(await lines.saveGroup(actorOf(request), request.body)), adminMessages.saved),
  );
  app.post(
    adminApi.deleteGroup.path,
    { config: adminOnly, schema: { body: idBody, response: replySchema(z.null()) } },
    async (request) => {
      await lines.deleteGroup(actorOf(request), request.body.id);
      return ok(null, adminMessages.saved);
    },
  );
};
