import { envelopeSchema } from '@linewatch/contracts/envelope';
import {
  caIdQuery,
  caInfoBody,
  facaByIdQuery,
  facaInfo,
  facaInfoBody,
  facaInfoIds,
  facaPageQuery,
  faInfoBody,
  handlerListQuery,
  handlerOption,
  namedOption,
  optionsQuery,
  savedId,
  task,
  taskPageQuery,
  taskResultBody,
} from '@linewatch/contracts/faca';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import { facaApi } from '@linewatch/contracts/faca-api';
import { contentPageReply } from '@linewatch/contracts/paging';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { FacaService } from './service.ts';

const saved = { 200: envelopeSchema(savedId) };

export const facaRoutes: FastifyPluginAsyncZod<{ faca: FacaService }> = async (app, { faca }) => {
  app.get(
    facaApi.facaInfoPage.path,
    {
      schema: {
        querystring: facaPageQuery,
        response: { 200: envelopeSchema(contentPageReply(facaInfo)) },
      },
    },
    async (request) => ok(await faca.page(userOf(request), request.query)),
  );

  app.get(
    facaApi.getFacaById.path,
    { schema: { querystring: facaByIdQuery, response: { 200: envelopeSchema(facaInfo) } } },
    async (request) => ok(await faca.byId(userOf(request), request.query.facaInfoId)),
  );

  app.post(
    facaApi.addOrUpdateFacaInfo.path,
    { schema: { body: facaInfoBody, response: saved } },
    async (request) =>
      ok(await faca.saveQuestion(userOf(request), request.body), facaMessages.saved),
  );

  app.post(
    facaApi.addOrUpdateFaInfo.path,
    { schema: { body: faInfoBody, response: saved } },
    async (request) => ok(await faca.saveFa(userOf(request), request.body), facaMessages.saved),
  );

  app.post(
    facaApi.addOrUpdateCaInfo.path,
    { schema: { body: caInfoBody, response: saved } },
    async (request) => ok(await faca.saveCa(userOf(request), request.body), facaMessages.saved),
  );

  const optionsReply = { 200: envelopeSchema(contentPageReply(namedOption)) };
  app.get(
    facaApi.getWorkmanshipPage.path,
    { schema: { querystring: optionsQuery, response: optionsReply } },
    async (request) => ok(await faca.workmanships(request.query)),
  );
  app.get(
    facaApi.getInfluenceParametersPage.path,
    { schema: { querystring: optionsQuery, response: optionsReply } },
    async (request) => ok(await faca.influenceParameters(request.query)),
  );

  app.get(
    facaApi.getHandlerList.path,
    {
      schema: {
        querystring: handlerListQuery,
        response: { 200: envelopeSchema(z.array(handlerOption)) },
      },
    },
    async (request) => ok(await faca.handlers(userOf(request), request.query.snCode)),
  );

  app.get(
    facaApi.taskPage.path,
    {
      schema: {
        querystring: taskPageQuery,
        response: { 200: envelopeSchema(contentPageReply(task)) },
      },
    },
    async (request) => ok(await faca.taskPage(userOf(request), request.query)),
  );

  app.get(
    facaApi.getFacaInfoIds.path,
    { schema: { querystring: caIdQuery, response: { 200: envelopeSchema(facaInfoIds) } } },
    async (request) => ok(await faca.facaInfoIds(userOf(request), request.query.caId)),
  );

  app.post(
    facaApi.submitTask.path,
    { schema: { body: taskResultBody, response: saved } },
    async (request) => ok(await faca.submitTask(userOf(request), request.body), facaMessages.saved),
  );
};
