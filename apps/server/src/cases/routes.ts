import { failureCase, failureCaseQuery } from '@linewatch/contracts/cases';
import { casesApi } from '@linewatch/contracts/cases-api';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../foundation/http/envelope.ts';
import type { CasesService } from './service.ts';

export const casesRoutes: FastifyPluginAsyncZod<{ cases: CasesService }> = async (
  app,
  { cases },
) => {
  // Public (docs/product.md section 2): an alarm message links here for people not signed in yet.
  app.get(
    casesApi.failureCase.path,
    {
      config: { public: true },
      schema: { querystring: failureCaseQuery, response: { 200: envelopeSchema(failureCase) } },
    },
    async (request) => ok(await cases.get(request.query.casesId)),
  );
};
