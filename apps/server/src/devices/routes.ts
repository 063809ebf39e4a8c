import { devicesApi } from '@linewatch/contracts/devices-api';
import {
  machineListQuery,
  machineListReply,
  menuNode,
  processAndCountQuery,
  statusSummary,
  statusSummaryQuery,
} from '@linewatch/contracts/devices';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { DevicesService } from './service.ts';

export const devicesRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (
  app,
  { devices },
) => {
  app.get(
    devicesApi.machineList.path,
    {
      schema: {
        querystring: machineListQuery,
        response: { 200: envelopeSchema(machineListReply) },
      },
    },
    async (request) => ok(await devices.list(userOf(request), request.query)),
  );

  app.get(
    devicesApi.statusSummary.path,
    {
      schema: {
        querystring: statusSummaryQuery,
        response: { 200: envelopeSchema(statusSummary) },
      },
    },
    async (request) => ok(await devices.statusSummary(userOf(request), request.query)),
  );

  app.get(
    devicesApi.processMenu.path,
    {
      schema: {
        querystring: processAndCountQuery,
        response: { 200: envelopeSchema(z.array(menuNode)) },
      },
    },
    async (request) => ok(await devices.menu(userOf(request), request.query.isFollow === '1')),
  );
};
