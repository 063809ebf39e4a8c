import { startFakeServer, type FakeServer } from './message-fake-server.ts';

export interface WechatTemplateMessage {
  touser: string;
  template_id: string;
  url?: string;
  client_msg_id?: string;
  data: Record<string, { value: string }>;
}

export interface WechatMessageFake extends FakeServer {
  /** Messages WeChat would show, one per client_msg_id (WeChat drops a repeat). */
  messages: WechatTemplateMessage[];
  tokensIssued(): number;
  /** Makes the current access token invalid, as another holder refreshing it would. */
  revokeToken(): void;
}

/**
 * The WeChat Official Account API as the server uses it: GET /cgi-bin/token (client_credential)
 * and POST /cgi-bin/message/template/send?access_token=…, with WeChat's reply shapes and codes
 * (40013 bad appid, 40001 invalid token).
 */
export const startWechatMessageFake = async (credentials: {
  appId: string;
  appSecret: string;
}): Promise<WechatMessageFake> => {
  const messages: WechatTemplateMessage[] = [];
  const seen = new Set<string>();
  let token = '';
  let tokensIssued = 0;
  const server = await startFakeServer(
    (r) => {
      if (r.url.pathname === '/cgi-bin/token') {
        if (
          r.url.searchParams.get('appid') !== credentials.appId ||
          r.url.searchParams.get('secret') !== credentials.appSecret
        )
          return { errcode: 40013, errmsg: 'invalid appid' };
        tokensIssued++;
        token = `wx-token-${tokensIssued}`;
        return { access_token: token, expires_in: 7200 };
      }
      if (r.url.pathname === '/cgi-bin/message/template/send') {
        if (!token || r.url.searchParams.get('access_token') !== token)
          return { errcode: 40001, errmsg: 'invalid credential, access_token is invalid' };
        const message = r.json as WechatTemplateMessage;
        const key = `${message.touser}:${message.client_msg_id ?? Math.random()}`;
        if (!seen.has(key)) {
          seen.add(key);
          messages.push(message);
        }
        return { errcode: 0, errmsg: 'ok', msgid: messages.length };
      }
      return { errcode: 404, errmsg: 'not found' };
    },
    (r) => r.url.pathname === '/cgi-bin/message/template/send',
  );
  return Object.assign(server, {
    messages,
    tokensIssued: () => tokensIssued,
    revokeToken: () => {
      token = 'revoked';
    },
  });
};
