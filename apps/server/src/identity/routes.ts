import { identityApi } from '@linewatch/contracts/identity-api';
import {
  dingdingBindUserBody,
  identityMessages,
  loginReply,
  sessionInfo,
  userInfo,
  wechatBindUserBody,
} from '@linewatch/contracts/identity';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import type { IdentityService } from './service.ts';

export const identityRoutes: FastifyPluginAsyncZod<{
  identity: IdentityService;
  secureCookie: boolean;
}> = async (app, { identity, secureCookie }) => {
  const setCookie = (reply: FastifyReply, keyId: string, expires: Date) =>
    reply.setCookie(KEY_ID_COOKIE, keyId, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie,
      expires,
    });

  const loginResponse = { 200: envelopeSchema(loginReply) };

  // A POST body, never query parameters: a password does not travel in a URL.
  app.post(
    identityApi.wechatBindUser.path,
    { config: { public: true }, schema: { body: wechatBindUserBody, response: loginResponse } },
    async (request, reply) => {
      const { psnCode, passWord, openId } = request.body;
      const session = await identity.login({ psnCode, passWord, openId, address: request.ip });
      setCookie(reply, session.keyId, session.expiresAt);
      return ok({ keyId: session.keyId }, identityMessages.loginOk);
    },
  );

  app.post(
    identityApi.dingdingBindUser.path,
    { config: { public: true }, schema: { body: dingdingBindUserBody, response: loginResponse } },
    async (request, reply) => {
      const { psnCode, passWord, dingDingUserId, mobile } = request.body;
      const session = await identity.login({
        psnCode,
        passWord,
        address: request.ip,
        dingTalk: dingDingUserId ? { dingDingUserId, mobile } : undefined,
      });
      setCookie(reply, session.keyId, session.expiresAt);
      return ok({ keyId: session.keyId }, identityMessages.loginOk);
    },
  );

  app.post(
    identityApi.userInfo.path,
    { schema: { response: { 200: envelopeSchema(userInfo) } } },
    async (request) => {
      const user = userOf(request);
      return ok({ name: user.name, nickName: user.nickName || user.name });
    },
  );

  // Restores a new tab's session from the HttpOnly cookie (contracts identity.ts).
  app.get(
    identityApi.session.path,
    { schema: { response: { 200: envelopeSchema(sessionInfo) } } },
    async (request, reply) => {
      const user = userOf(request);
      const header = request.headers[KEY_ID_HEADER.toLowerCase()];
      const keyId =
        typeof header === 'string' && header ? header : (request.cookies[KEY_ID_COOKIE] ?? '');
      reply.header('cache-control', 'no-store');
      return ok({ keyId, name: user.name, nickName: user.nickName || user.name });
    },
  );

  // The spec names these as GETs; they change state, so the cookie alone is not enough.
  for (const { path: url } of [identityApi.wechatSignOut, identityApi.dingdingSignOut]) {
    app.route({
      method: ['GET', 'POST'],
      url,
      config: { stateChanging: true },
      schema: { response: { 200: envelopeSchema(z.null()) } },
      handler: async (request, reply) => {
        await identity.logout(userOf(request));
        reply.clearCookie(KEY_ID_COOKIE, { path: '/' });
        return ok(null);
      },
    });
  }
};
