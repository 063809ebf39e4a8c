import { envelopeSchema } from '@linewatch/contracts/envelope';
import {
  mapPoints,
  mapQuery,
  mapStatus,
  option,
  productGroupQuery,
  statisticsQuery,
  statisticsReply,
} from '@linewatch/contracts/statistics';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { StatisticsService } from './service.ts';

export const statisticsRoutes: FastifyPluginAsyncZod<{ statistics: StatisticsService }> = async (
  app,
  { statistics },
) => {
  app.get(
    statisticsApi.mapData.path,
    { schema: { querystring: mapQuery, response: { 200: envelopeSchema(mapStatus) } } },
    async (request) => ok(await statistics.mapStatus(userOf(request), request.query)),
  );

  app.get(
    statisticsApi.mapAllData.path,
    { schema: { querystring: mapQuery, response: { 200: envelopeSchema(mapPoints) } } },
    async (request) =>
      ok({ machineStatusList: await statistics.mapPoints(userOf(request), request.query) }),
  );

  app.get(
    statisticsApi.productLines.path,
    { schema: { response: { 200: envelopeSchema(z.array(option)) } } },
    async (request) => ok(await statistics.productLines(userOf(request))),
  );

  app.get(
    statisticsApi.productGroups.path,
    {
      schema: {
        querystring: productGroupQuery,
        response: { 200: envelopeSchema(z.array(option)) },
      },
    },
    async (request) =>
      ok(await statistics.productGroups(userOf(request), request.query.productLine)),
  );

  app.get(
    statisticsApi.statistics.path,
    {
      schema: { querystring: statisticsQuery, response: { 200: envelopeSchema(statisticsReply) } },
    },
    async (request) => ok(await statistics.statistics(userOf(request), request.query)),
  );
};
