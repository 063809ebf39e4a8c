import {
  channelSettings,
  dailyOrWeeklyQuery,
  reportReply,
  saveChannelsBody,
} from '@linewatch/contracts/alerts';
import { alertsApi as api } from '@linewatch/contracts/alerts-api';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import { requireMachine } from '../plugins/visibility.ts';
import { reportDisposition, reportWorkbook, XLSX_TYPE } from './report-workbook.ts';
import type { AlertsService } from './service.ts';
import { presentChannelSettings, presentReport } from './presenter.ts';

export const alertsRoutes: FastifyPluginAsyncZod<{ alerts: AlertsService }> = async (
  app,
  { alerts },
) => {
  app.get(
    api.channels.path,
    { schema: { response: { 200: envelopeSchema(channelSettings) } } },
    async (request) => ok(presentChannelSettings(await alerts.channelSettings(userOf(request)))),
  );
  app.post(
    api.saveChannels.path,
    { schema: { body: saveChannelsBody, response: { 200: envelopeSchema(channelSettings) } } },
    async (request) => {
      const user = userOf(request);
      await alerts.saveChannels(user, request.body);
      return ok(presentChannelSettings(await alerts.channelSettings(user)));
    },
  );
  app.get(
    api.report.path,
    {
      preHandler: requireMachine('snCode'),
      schema: { querystring: dailyOrWeeklyQuery, response: { 200: envelopeSchema(reportReply) } },
    },
    async (request) => ok(presentReport(await alerts.report(request.machine!, request.query))),
  );
  app.get(
    api.reportXlsx.path,
    { preHandler: requireMachine('snCode'), schema: { querystring: dailyOrWeeklyQuery } },
    async (request, reply) => {
      const report = presentReport(await alerts.report(request.machine!, request.query));
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', reportDisposition(report))
        .send(await reportWorkbook(report));
    },
  );
};
