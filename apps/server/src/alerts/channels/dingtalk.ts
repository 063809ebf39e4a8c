import { fetchJson, TokenCache, type Channel } from './channel.ts';

interface DingtalkOptions {
  apiBase: string;
  appKey: string;
  appSecret: string;
  agentId: string;
}

interface DingtalkReply {
  errcode?: number;
  errmsg?: string;
}

/** Token not valid (40014) or expired (42001). */
const TOKEN_ERRORS = new Set([40014, 42001]);

/**
 * DingTalk work notice (topapi/message/corpconversation/asyncsend_v2) with the app's access
 * token (gettoken, appkey/appsecret). The message is markdown with the link at the end.
 *
 * The API takes no idempotency key, but DingTalk shows a user one message of one app with the
 * same content once a day (a repeat is answered ok and dropped). The content ends with the
 * delivery id, so a resend of one delivery (a crash after DingTalk took it) is that repeat, and
 * two different messages with the same text (a second episode the same day) are never one.
 */
export const dingtalkChannel = (o: DingtalkOptions, now?: () => number): Channel => {
  const tokens = new TokenCache(async () => {
    const url = new URL('/gettoken', o.apiBase);
    url.search = new URLSearchParams({ appkey: o.appKey, appsecret: o.appSecret }).toString();
    const reply = await fetchJson<DingtalkReply & { access_token?: string; expires_in?: number }>(
      url.toString(),
    );
    if (reply.errcode || !reply.access_token)
      throw new Error(`dingtalk token: ${reply.errcode} ${reply.errmsg}`);
    return { token: reply.access_token, expiresInS: reply.expires_in ?? 7200 };
  }, now);

  return {
    name: 'dingtalk',
    async send(m) {
      const text = [
        `### ${m.title}`,
        m.body,
        ...(m.url ? [`[查看详情](${m.url})`] : []),
        `消息编号：${m.deliveryId}`,
      ].join('\n\n');
      for (let attempt = 0; ; attempt++) {
        const token = await tokens.get();
        const reply = await fetchJson<DingtalkReply>(
          `${new URL('/topapi/message/corpconversation/asyncsend_v2', o.apiBase).toString()}?access_token=${encodeURIComponent(token)}`,
          {
            method: 'POST',
            body: JSON.stringify({
              agent_id: Number(o.agentId),
              userid_list: m.target,
              msg: { msgtype: 'markdown', markdown: { title: m.title, text } },
            }),
          },
        );
        if (!reply.errcode) return;
        if (attempt === 0 && TOKEN_ERRORS.has(reply.errcode)) {
          tokens.invalidate(token);
          continue;
        }
        throw new Error(`dingtalk: ${reply.errcode} ${reply.errmsg ?? ''}`.trim());
      }
    },
  };
};
