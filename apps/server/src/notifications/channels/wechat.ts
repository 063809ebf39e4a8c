import { fetchJson, TokenCache, type Channel, type OutgoingMessage } from './channel.ts';
import type { TemplateMappings } from '../../foundation/config/wechat-templates.ts';
import { templateData } from './wechat-template.ts';

interface WechatOptions {
  apiBase: string;
  appId: string;
  appSecret: string;
  /** Which template each kind of message uses and what goes into its fields (WECHAT_TEMPLATES). */
  templates: TemplateMappings;
  /** The factory's: a template's time field shows local time. */
  timeZone: string;
}

interface WechatReply {
  errcode?: number;
  errmsg?: string;
}

/**
 * The token is not valid: 40001 "access_token is invalid or not latest", 40014 "不合法的
 * access_token", 42001 "access_token expired" (WeChat's global return codes).
 */
const TOKEN_ERRORS = new Set([40001, 40014, 42001]);

/**
 * WeChat Official Account template message (cgi-bin/message/template/send), its fields filled as
 * the configured template says (wechat-template.ts). client_msg_id makes WeChat drop a repeat of
 * one delivery.
 *
 * The access token is one per application, and every server instance needs it. cgi-bin/token
 * would hand each fetch a new token and void the previous one five minutes later, so one
 * instance's fetch would break the others' sends. cgi-bin/stable_token in normal mode
 * (force_refresh false) returns the same token to every caller while it has more than five
 * minutes left, and a new one in its last five minutes, when the old one still works until it
 * expires; so each instance keeps its own copy and renews it in those five minutes (TokenCache).
 * A refused token is fetched again in normal mode, never forced: a force refresh voids the token
 * every other instance holds, and WeChat allows 20 a day, for a leaked token.
 */
export const wechatChannel = (o: WechatOptions, now?: () => number): Channel => {
  const tokens = new TokenCache(async () => {
    const reply = await fetchJson<WechatReply & { access_token?: string; expires_in?: number }>(
      new URL('/cgi-bin/stable_token', o.apiBase).toString(),
      {
        method: 'POST',
        body: JSON.stringify({
          grant_type: 'client_credential',
          appid: o.appId,
          secret: o.appSecret,
          force_refresh: false,
        }),
      },
    );
    if (!reply.access_token) throw new Error(`wechat token: ${reply.errcode} ${reply.errmsg}`);
    return { token: reply.access_token, expiresInS: reply.expires_in ?? 7200 };
  }, now);

  const post = async (token: string, m: OutgoingMessage) => {
    const template = o.templates[m.kind] ?? o.templates.default;
    return fetchJson<WechatReply>(
      `${new URL('/cgi-bin/message/template/send', o.apiBase).toString()}?access_token=${encodeURIComponent(token)}`,
      {
        method: 'POST',
        body: JSON.stringify({
          touser: m.target,
          template_id: template.id,
          ...(m.url ? { url: m.url } : {}),
          client_msg_id: m.deliveryId,
          data: templateData(template, m, o.timeZone),
        }),
      },
    );
  };

  return {
    name: 'wechat',
    async send(m) {
      for (let attempt = 0; ; attempt++) {
        const token = await tokens.get();
        const reply = await post(token, m);
        if (!reply.errcode) return;
        if (attempt === 0 && TOKEN_ERRORS.has(reply.errcode)) {
          tokens.invalidate(token);
          continue;
        }
        throw new Error(`wechat: ${reply.errcode} ${reply.errmsg ?? ''}`.trim());
      }
    },
  };
};
