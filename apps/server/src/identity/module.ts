import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { hear } from '../foundation/db/notices.ts';
import { authPlugin } from '../plugins/auth.ts';
import { createDingtalkClient } from './dingtalk-client.ts';
import { createIdentityRepository } from './repository.ts';
import { identityRoutes } from './routes.ts';
import { createIdentityService, type IdentityService } from './service.ts';
import { createWechatClient } from './wechat-client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityService;
  }
}

/**
 * Sign-in and sessions. Registers the auth plugin with its service before any route, so every
 * /api route registered after it (this module's and the later modules') needs a keyId.
 */
export const identityModule = fp(
  async (app, { core }: { core: Core }) => {
    const { config } = core;
    const repo = createIdentityRepository(core.database.db);
    const identity = createIdentityService(
      repo,
      config.SESSION_TTL_HOURS * 3_600_000,
      {
        wechat:
          config.WECHAT_APPID && config.WECHAT_SECRET
            ? createWechatClient({
                appId: config.WECHAT_APPID,
                secret: config.WECHAT_SECRET,
                apiUrl: config.WECHAT_API_URL,
                oauthUrl: config.WECHAT_OAUTH_URL,
              })
            : null,
        dingtalk:
          config.DINGTALK_APPKEY && config.DINGTALK_APPSECRET
            ? createDingtalkClient(
                {
                  appKey: config.DINGTALK_APPKEY,
                  appSecret: config.DINGTALK_APPSECRET,
                  agentId: config.DINGTALK_AGENT_ID ?? '',
                  corpId: config.DINGTALK_CORP_ID ?? '',
                  apiUrl: config.DINGTALK_API_URL,
                },
                repo,
              )
            : null,
        onProviderError: (error) => app.log.warn({ err: error }, 'messaging platform refused'),
      },
      core.cacheMaxAgeMs,
    );
    // Sign-outs and ended sessions (identity's own, through another instance or the CLI) and
    // users changed by an admin (the admin module announces them).
    await hear(core.database, 'sessions_ended', identity.sessionsEndedElsewhere);
    await hear(core.database, 'users_changed', (notice) =>
      identity.usersChanged(notice?.users ?? null),
    );
    app.decorate('identity', identity);
    await app.register(authPlugin, { sessions: identity });
    app.jobs.every({
      name: 'identity.purge-expired-sessions',
      everyMs: 3_600_000,
      run: async () => void (await identity.purgeExpiredSessions()),
    });
    await app.register(identityRoutes, {
      identity,
      secureCookie: config.PUBLIC_URL?.startsWith('https:') ?? false,
      secret: config.SECRET,
      publicUrl: config.PUBLIC_URL,
    });
  },
  { name: 'identity', dependencies: ['jobs'] },
);
