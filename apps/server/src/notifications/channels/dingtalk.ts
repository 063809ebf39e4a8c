import { fetchJson, TokenCache, type Channel, type Confirmation } from './channel.ts';

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

/** getsendresult's send_result (the lists name userids). */
interface SendResult {
  invalid_user_id_list?: string[];
  forbidden_user_id_list?: string[];
  failed_user_id_list?: string[];
  read_user_id_list?: string[];
  unread_user_id_list?: string[];
  forbidden_list?: { code?: string; userid?: string }[];
}

/** "单应用给单人推送重复消息超限" (143106): the same content to the same person again that day. */
const REPEATED_CONTENT = '143106';

/**
 * What send_result says of one person. A notice whose content was refused as a repeat did reach
 * them: its content ends with its delivery id, so only an earlier attempt of this same delivery
 * (a worker that died before marking it sent) can have been the first.
 */
const reachOf = (result: SendResult, userid: string): Confirmation => {
  if (result.read_user_id_list?.includes(userid) || result.unread_user_id_list?.includes(userid))
    return { reached: true };
  if (result.invalid_user_id_list?.includes(userid))
    return { reached: false, reason: 'invalid_user_id_list' };
  if (result.failed_user_id_list?.includes(userid))
    return { reached: false, reason: 'failed_user_id_list' };
  if (result.forbidden_user_id_list?.includes(userid)) {
    const codes = (result.forbidden_list ?? []).filter((f) => f.userid === userid);
    return codes.some((f) => f.code === REPEATED_CONTENT)
      ? { reached: true }
      : {
          reached: false,
          reason: `forbidden_user_id_list ${codes.map((f) => f.code).join(',')}`.trim(),
        };
  }
  return null;
};

/**
 * DingTalk work notice (topapi/message/corpconversation/asyncsend_v2) with the app's access
 * token (gettoken, appkey/appsecret). The message is markdown with the link at the end.
 *
 * asyncsend_v2's errcode 0 says DingTalk took the task, not that anyone got it: a person who left
 * is an invalid userid, flow control drops some, a push can fail. send() answers the task_id,
 * and the outbox asks getsendresult (confirm) until the person appears in one of its lists
 * ("This API is suitable for scenarios where you need to confirm whether a Work Notification
 * message has been successfully delivered to specific users",
 * https://help.dingtalk.io/open/development/gets-the-result-of-sending-messages-asynchronously-to-the-enterprise).
 *
 * The API takes no idempotency key, but DingTalk sends one app's same content to one user once a
 * day ("给同一用户发相同内容消息一天仅允许一次"; a repeat is listed as forbidden, code 143106). The
 * content ends with the delivery id, so a resend of one delivery (a crash after DingTalk took it)
 * is that repeat, and two different messages with the same text (a second episode the same day)
 * are never one.
 */
export const dingtalkChannel = (o: DingtalkOptions, now?: () => number): Channel => {
  /** A call with the app's token, fetched again once if DingTalk no longer takes it. */
  const call = async <T>(path: string, body: unknown): Promise<DingtalkReply & T> => {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      const reply = await fetchJson<DingtalkReply & T>(
        `${new URL(path, o.apiBase).toString()}?access_token=${encodeURIComponent(token)}`,
        { method: 'POST', body: JSON.stringify(body) },
      );
      if (!reply.errcode) return reply;
      if (attempt === 0 && TOKEN_ERRORS.has(reply.errcode)) {
        tokens.invalidate(token);
        continue;
      }
      throw new Error(`dingtalk: ${reply.errcode} ${reply.errmsg ?? ''}`.trim());
    }
  };

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
      const reply = await call<{ task_id?: number }>(
        '/topapi/message/corpconversation/asyncsend_v2',
        {
          agent_id: Number(o.agentId),
          userid_list: m.target,
          msg: { msgtype: 'markdown', markdown: { title: m.title, text } },
        },
      );
      if (reply.task_id === undefined) throw new Error('dingtalk: no task_id');
      return String(reply.task_id);
    },

    async confirm(receipt, target) {
      const reply = await call<{ send_result?: SendResult }>(
        '/topapi/message/corpconversation/getsendresult',
        { agent_id: Number(o.agentId), task_id: Number(receipt) },
      );
      return reachOf(reply.send_result ?? {}, target);
    },
  };
};
