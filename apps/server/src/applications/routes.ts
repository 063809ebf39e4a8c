import { applicationsApi } from '@linewatch/contracts/applications-api';
import {
  applicationMessages,
  applicationProgress,
  applicationProgressBody,
  applyForm,
  applyReply,
  sendCodeBody,
  sendCodeReply,
  smsMessage,
} from '@linewatch/contracts/applications';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import type { ApplicationsService } from './service.ts';
import { presentProgress, presentSms } from './presenter.ts';

export const applicationsRoutes: FastifyPluginAsyncZod<{
  applications: ApplicationsService;
}> = async (app, { applications }) => {
  app.post(
    applicationsApi.sendCode.path,
    {
      config: { public: true },
      schema: { body: sendCodeBody, response: { 200: envelopeSchema(sendCodeReply) } },
    },
    async (request) =>
      ok(
        await applications.sendCode(request.body.mobile, request.ip),
        applicationMessages.codeSent,
      ),
  );

  app.post(
    applicationsApi.apply.path,
    {
      config: { public: true },
      schema: { body: applyForm, response: { 200: envelopeSchema(applyReply) } },
    },
    async (request) => ok(await applications.apply(request.body), applicationMessages.submitted),
  );

  app.post(
    applicationsApi.progress.path,
    {
      config: { public: true },
      schema: {
        body: applicationProgressBody,
        response: { 200: envelopeSchema(applicationProgress) },
      },
    },
    async (request) => ok(presentProgress(await applications.progress(request.body.token))),
  );

  app.get(
    applicationsApi.smsOutbox.path,
    {
      config: { adminOnly: true },
      schema: { response: { 200: envelopeSchema(z.array(smsMessage)) } },
    },
    async () => ok((await applications.smsOutbox()).map(presentSms)),
  );
};
