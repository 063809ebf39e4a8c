import { envelopeSchema } from '@linewatch/contracts/envelope';
import {
  addFollowBody,
  cancelFollowBody,
  changedReply,
  delFollowsBody,
  dictItem,
  followIdBody,
  followIdsBody,
  followListQuery,
  followListReply,
  followSettings,
  snCodeQuery,
  snCodesQuery,
  snCodesReply,
  userDictQuery,
} from '@linewatch/contracts/subscriptions';
import { subscriptionsApi as api } from '@linewatch/contracts/subscriptions-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { SubscriptionsService } from './service.ts';
import {
  presentFollowList,
  presentGroupItem,
  presentMachineItem,
  presentSettings,
  presentSnCodes,
} from './presenter.ts';

const changed = { response: { 200: envelopeSchema(changedReply) } };

export const subscriptionsRoutes: FastifyPluginAsyncZod<{
  subscriptions: SubscriptionsService;
}> = async (app, { subscriptions: s }) => {
  app.post(api.addFollow.path, { schema: { body: addFollowBody, ...changed } }, async (request) =>
    ok({ count: await s.follow(userOf(request), request.body) }),
  );
  app.post(
    api.cancelFollow.path,
    { schema: { body: cancelFollowBody, ...changed } },
    async (request) => ok({ count: await s.unfollow(userOf(request), request.body.snCode) }),
  );
  app.post(api.delFollows.path, { schema: { body: delFollowsBody, ...changed } }, async (request) =>
    ok({ count: await s.unfollow(userOf(request), request.body.snCodes, true) }),
  );
  app.post(api.deleteOne.path, { schema: { body: followIdBody, ...changed } }, async (request) =>
    ok({ count: await s.deleteByIds(userOf(request), [request.body.id]) }),
  );
  app.post(api.deleteByIds.path, { schema: { body: followIdsBody, ...changed } }, async (request) =>
    ok({ count: await s.deleteByIds(userOf(request), request.body.ids) }),
  );
  app.get(
    api.followSettings.path,
    { schema: { querystring: snCodeQuery, response: { 200: envelopeSchema(followSettings) } } },
    async (request) =>
      ok(presentSettings(await s.settings(userOf(request), request.query.snCode[0]!))),
  );
  app.get(
    api.processSections.path,
    { schema: { response: { 200: envelopeSchema(z.array(dictItem)) } } },
    async (request) => ok((await s.groups(userOf(request))).map(presentGroupItem)),
  );
  app.get(
    api.snCodes.path,
    { schema: { querystring: snCodesQuery, response: { 200: envelopeSchema(snCodesReply) } } },
    async (request) => ok(presentSnCodes(await s.snCodes(userOf(request), request.query))),
  );
  app.get(
    api.userDict.path,
    {
      schema: { querystring: userDictQuery, response: { 200: envelopeSchema(z.array(dictItem)) } },
    },
    async (request) =>
      ok((await s.userDict(userOf(request), request.query)).map(presentMachineItem)),
  );
  app.get(
    api.list.path,
    {
      schema: { querystring: followListQuery, response: { 200: envelopeSchema(followListReply) } },
    },
    async (request) => ok(presentFollowList(await s.list(userOf(request), request.query))),
  );
};
