import { envelopeSchema } from '@linewatch/contracts/envelope';
import {
  historyDetailQuery,
  historyDetailReply,
  historyDtReply,
  historyQuery,
  historyReply,
  operationLogQuery,
  operationLogReply,
  stopAlarmQuery,
  stopAlarmReply,
} from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../foundation/http/envelope.ts';
import { requireMachine } from '../plugins/visibility.ts';
import type { HistoryService } from './service.ts';

/** The machine `requireMachine` put on the request: visible to the user. */
const snOf = (request: FastifyRequest) => request.machine!.sn;

export const historyRoutes: FastifyPluginAsyncZod<{ history: HistoryService }> = async (
  app,
  { history },
) => {
  const machineScoped = { preHandler: requireMachine('snCode') };

  app.get(
    historyApi.history.path,
    {
      ...machineScoped,
      schema: { querystring: historyQuery, response: { 200: envelopeSchema(historyReply) } },
    },
    async (request) => ok(await history.history(snOf(request), request.query)),
  );

  app.get(
    historyApi.historyDt.path,
    {
      ...machineScoped,
      schema: { querystring: historyQuery, response: { 200: envelopeSchema(historyDtReply) } },
    },
    async (request) => ok(await history.dt(snOf(request), request.query)),
  );

  app.get(
    historyApi.detail.path,
    {
      ...machineScoped,
      schema: {
        querystring: historyDetailQuery,
        response: { 200: envelopeSchema(historyDetailReply) },
      },
    },
    async (request) => ok(await history.detail(snOf(request), request.query)),
  );

  app.get(
    historyApi.stopAlarms.path,
    {
      ...machineScoped,
      schema: { querystring: stopAlarmQuery, response: { 200: envelopeSchema(stopAlarmReply) } },
    },
    async (request) => ok(await history.stopAlarms(snOf(request), request.query)),
  );

  app.get(
    historyApi.operationLog.path,
    {
      ...machineScoped,
      schema: {
        querystring: operationLogQuery,
        response: { 200: envelopeSchema(operationLogReply) },
      },
    },
    async (request) => ok(await history.operationLog(snOf(request), request.query)),
  );
};
