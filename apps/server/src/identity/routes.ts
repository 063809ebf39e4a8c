import { identityApi } from '@linewatch/contracts/identity-api';
import {
  dingdingBindUserBody,
  dingtalkCodeQuery,
  dingtalkConfig,
  dingtalkConfigQuery,
  dingtalkUserInfoReply,
  identityMessages,
  loginReply,
  sessionInfo,
  userInfo,
  userProfile,
  wechatAuthorizeQuery,
  wechatBindUserBody,
  wechatUserInfoQuery,
  wechatUserInfoReply,
} from '@linewatch/contracts/identity';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdentityProvider } from '../foundation/db/schema/identity.ts';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import { randomBytes } from 'node:crypto';
import {
  openPendingIdentity,
  PENDING_IDENTITY_COOKIE,
  PENDING_IDENTITY_TTL_MS,
  sealPendingIdentity,
  type PendingIdentity,
} from './pending-identity.ts';
import type { IdentityService, Session } from './service.ts';
import { presentProfile } from './presenter.ts';

/** The OAuth `state` this browser was sent to WeChat with; read back once on its return. */
const OAUTH_STATE_COOKIE = 'lw_oauth_state';
const OAUTH_STATE_PATH = '/api/wechat';
/** The state given with the DingTalk config; the auth code is taken only with it, once. */
const DINGTALK_STATE_COOKIE = 'lw_dd_state';
const DINGTALK_STATE_PATH = '/dd/dingding';
const STATE_MAX_AGE_S = 600;

/**
 * 256 random bits in hex: WeChat takes "a-zA-Z0-9的参数值，最多128字节" as state
 * (https://developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/Wechat_webpage_authorization.html);
 * base64url's '-' and '_' are outside it.
 */
const newState = () => randomBytes(32).toString('hex');

/** Only a path of this app is a place to come back to, never another origin. */
const appPath = (raw: string | undefined) =>
  raw && raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? raw : '/';

export const identityRoutes: FastifyPluginAsyncZod<{
  identity: IdentityService;
  secureCookie: boolean;
  /** Signs the pending-identity cookie. */
  secret: string;
  /**
   * The address phones use (PUBLIC_URL, required with WeChat or DingTalk sign-in): where WeChat
   * sends the browser back to, never the request's Host.
   */
  publicUrl: string | undefined;
}> = async (app, { identity, secureCookie, secret, publicUrl }) => {
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie,
  } as const;

  const startSession = (reply: FastifyReply, session: Session) => {
    reply.setCookie(KEY_ID_COOKIE, session.keyId, { ...cookieOptions, expires: session.expiresAt });
    reply.clearCookie(PENDING_IDENTITY_COOKIE, { path: '/' });
  };

  const holdPending = (reply: FastifyReply, pending: PendingIdentity) =>
    reply.setCookie(PENDING_IDENTITY_COOKIE, sealPendingIdentity(secret, pending), {
      ...cookieOptions,
      sameSite: 'strict',
      maxAge: PENDING_IDENTITY_TTL_MS / 1000,
    });

  const vouchedFor = (request: FastifyRequest) =>
    openPendingIdentity(secret, request.cookies[PENDING_IDENTITY_COOKIE]);

  const loginResponse = { 200: envelopeSchema(loginReply) };

  // Sent as a page navigation by the web app (guard, 0405 inside WeChat), not fetched.
  app.get(
    identityApi.wechatAuthorize.path,
    { config: { public: true }, schema: { querystring: wechatAuthorizeQuery } },
    async (request, reply) => {
      const login = `/login?${new URLSearchParams({ redirect: appPath(request.query.redirect) })}`;
      const state = newState();
      const authorize =
        publicUrl && identity.wechatAuthorizeUrl(`${publicUrl.replace(/\/+$/, '')}${login}`, state);
      // Not configured: straight to the login form, which says no code came back.
      if (!authorize) return reply.redirect(login, 302);
      reply.setCookie(OAUTH_STATE_COOKIE, state, {
        ...cookieOptions,
        path: OAUTH_STATE_PATH,
        maxAge: STATE_MAX_AGE_S,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(authorize, 302);
    },
  );

  app.get(
    identityApi.wechatUserInfo.path,
    {
      config: { public: true },
      schema: {
        querystring: wechatUserInfoQuery,
        response: { 200: envelopeSchema(wechatUserInfoReply) },
      },
    },
    async (request, reply) => {
      const expectedState = request.cookies[OAUTH_STATE_COOKIE];
      // A state is good for one return.
      reply.clearCookie(OAUTH_STATE_COOKIE, { path: OAUTH_STATE_PATH });
      const { openId, session } = await identity.signInWithWechat({
        code: request.query.code,
        state: request.query.state,
        expectedState,
        address: request.ip,
      });
      if (!session) {
        holdPending(reply, { provider: 'wechat', subject: openId });
        return ok({ openId });
      }
      startSession(reply, session);
      return ok({ openId, keyId: session.keyId }, identityMessages.loginOk);
    },
  );

  // A POST body, never query parameters: a password does not travel in a URL.
  app.post(
    identityApi.wechatBindUser.path,
    { config: { public: true }, schema: { body: wechatBindUserBody, response: loginResponse } },
    async (request, reply) => {
      const { psnCode, passWord, openId } = request.body;
      const session = await identity.login({
        psnCode,
        passWord,
        address: request.ip,
        claimed: openId ? { provider: 'wechat', subject: openId } : undefined,
        vouched: vouchedFor(request),
      });
      startSession(reply, session);
      return ok({ keyId: session.keyId }, identityMessages.loginOk);
    },
  );

  app.get(
    identityApi.dingdingConfig.path,
    {
      config: { public: true },
      schema: {
        querystring: dingtalkConfigQuery,
        response: { 200: envelopeSchema(dingtalkConfig) },
      },
    },
    async (request, reply) => {
      const config = await identity.dingtalkConfig(
        request.query.url,
        publicUrl && new URL(publicUrl).origin,
      );
      const state = newState();
      reply.setCookie(DINGTALK_STATE_COOKIE, state, {
        ...cookieOptions,
        sameSite: 'strict',
        path: DINGTALK_STATE_PATH,
        maxAge: STATE_MAX_AGE_S,
      });
      reply.header('cache-control', 'no-store');
      return ok({ ...config, state });
    },
  );

  app.get(
    identityApi.dingdingUserInfo.path,
    {
      config: { public: true },
      schema: {
        querystring: dingtalkCodeQuery,
        response: { 200: envelopeSchema(dingtalkUserInfoReply) },
      },
    },
    async (request, reply) => {
      const expectedState = request.cookies[DINGTALK_STATE_COOKIE];
      reply.clearCookie(DINGTALK_STATE_COOKIE, { path: DINGTALK_STATE_PATH });
      const { userid, mobile, session } = await identity.signInWithDingtalk({
        code: request.query.code,
        state: request.query.state,
        expectedState,
        address: request.ip,
      });
      if (!session) {
        holdPending(reply, { provider: 'dingtalk', subject: userid, mobile });
        return ok({ userid, mobile }, identityMessages.dingTalkNotBound);
      }
      startSession(reply, session);
      return ok({ userid, mobile, keyId: session.keyId }, identityMessages.loginOk);
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
        claimed: dingDingUserId
          ? { provider: 'dingtalk', subject: dingDingUserId, mobile }
          : undefined,
        vouched: vouchedFor(request),
      });
      startSession(reply, session);
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

  app.get(
    identityApi.userProfile.path,
    { schema: { response: { 200: envelopeSchema(userProfile) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(presentProfile(await identity.profile(userOf(request))));
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
      return ok({ keyId, ...presentProfile(await identity.profile(user)) });
    },
  );

  // The spec names these as GETs; they change state, so the cookie alone is not enough.
  const signOuts: [string, IdentityProvider | null][] = [
    [identityApi.wechatSignOut.path, 'wechat'],
    [identityApi.dingdingSignOut.path, 'dingtalk'],
    [identityApi.signOut.path, null],
  ];
  for (const [url, unbind] of signOuts) {
    app.route({
      method: ['GET', 'POST'],
      url,
      config: { stateChanging: true },
      schema: { response: { 200: envelopeSchema(z.null()) } },
      handler: async (request, reply) => {
        await identity.logout(userOf(request), unbind);
        reply.clearCookie(KEY_ID_COOKIE, { path: '/' });
        return ok(null);
      },
    });
  }
};
