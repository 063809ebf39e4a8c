import { inboxQuery, inboxReply, markReadBody, unreadReply } from '@linewatch/contracts/alerts';
import { alertsApi as api } from '@linewatch/contracts/alerts-api';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { Notifications } from './service.ts';
import { presentInbox } from './presenter.ts';

/** The inbox (/messages) and the unread badge: the notices written for the signed-in person. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: Notifications }> = async (
  app,
  { notifications },
) => {
  app.get(
    api.inbox.path,
    { schema: { querystring: inboxQuery, response: { 200: envelopeSchema(inboxReply) } } },
    async (request) =>
      ok(
        presentInbox(
          await notifications.inbox(
            userOf(request),
            request.query.pageNumber,
            request.query.pageSize,
          ),
        ),
      ),
  );
  app.get(
    api.unread.path,
    { schema: { response: { 200: envelopeSchema(unreadReply) } } },
    async (request) => ok({ unread: await notifications.unread(userOf(request)) }),
  );
  app.post(
    api.markRead.path,
    { schema: { body: markReadBody, response: { 200: envelopeSchema(unreadReply) } } },
    async (request) => {
      const user = userOf(request);
      await notifications.markRead(user, request.body.ids, request.body.all === true);
      return ok({ unread: await notifications.unread(user) });
    },
  );
};
