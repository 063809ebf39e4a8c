import { fetchJson, TokenCache, type Channel, type OutgoingMessage } from './channel.ts';

interface WechatOptions {
  apiBase: string;
  appId: string;
  appSecret: string;
  templateId: string;
}

interface WechatReply {
  errcode?: number;
  errmsg?: string;
}

/** access_token invalid (40001), expired (42001), or not the latest (40014). */
const TOKEN_ERRORS = new Set([40001, 40014, 42001]);

/**
 * WeChat Official Account template message (cgi-bin/message/template/send) with the access token
 * of cgi-bin/token (client_credential). client_msg_id makes WeChat drop a repeat of one delivery.
 */
export const wechatChannel = (o: WechatOptions, now?: () => number): Channel => {
  const tokens = new TokenCache(async () => {
    const url = new URL('/cgi-bin/token', o.apiBase);
    url.search = new URLSearchParams({
      grant_type: 'client_credential',
      appid: o.appId,
      secret: o.appSecret,
    }).toString();
    const reply = await fetchJson<WechatReply & { access_token?: string; expires_in?: number }>(
      url.toString(),
    );
    if (!reply.access_token) throw new Error(`wechat token: ${reply.errcode} ${reply.errmsg}`);
    return { token: reply.access_token, expiresInS: reply.expires_in ?? 7200 };
  }, now);

  const post = async (token: string, m: OutgoingMessage) =>
    fetchJson<WechatReply>(
      `${new URL('/cgi-bin/message/template/send', o.apiBase).toString()}?access_token=${encodeURIComponent(token)}`,
      {
        method: 'POST',
        body: JSON.stringify({
          touser: m.target,
          template_id: o.templateId,
          ...(m.url ? { url: m.url } : {}),
          client_msg_id: m.deliveryId,
          data: {
            first: { value: m.title },
            keyword1: { value: m.body },
            keyword2: { value: m.createdAt.toISOString() },
            remark: { value: m.url ? '点击查看详情' : '' },
          },
        }),
      },
    );

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
