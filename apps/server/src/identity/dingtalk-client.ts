import { createHash, randomBytes } from 'node:crypto';
import { providerCall, ProviderError } from './provider-http.ts';
import { sharedCredential, type CredentialStore } from './shared-credential.ts';

export interface DingtalkSettings {
  appKey: string;
  appSecret: string;
  agentId: string;
  corpId: string;
  /** https://oapi.dingtalk.com */
  apiUrl: string;
}

/** Renew the token or the ticket this long before DingTalk says it expires. */
const RENEW_EARLY_MS = 5 * 60_000;

/**
 * DingTalk's JSAPI signature, as DingTalk documents it: SHA-1 (hex) of
 * `jsapi_ticket=…&noncestr=…&timestamp=…&url=…`, the URL percent-decoded as in DingTalk's sample.
 */
export const jsapiSignature = (input: {
  ticket: string;
  nonceStr: string;
  timeStamp: number;
  url: string;
}): string => {
  let url = input.url;
  try {
    url = decodeURIComponent(url);
  } catch {
    // not percent-encoded: signed as given
  }
  const plain = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timeStamp}&url=${url}`;
  return createHash('sha1').update(plain, 'utf8').digest('hex');
};

/** A value fetched from DingTalk and kept by this instance until shortly before it expires. */
const cached = (fetchValue: () => Promise<{ value: string; expiresInS: number }>) => {
  let current: { value: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  return (): Promise<string> => {
    if (current && Date.now() < current.renewAt) return Promise.resolve(current.value);
    pending ??= fetchValue()
      .then(({ value, expiresInS }) => {
        current = { value, renewAt: Date.now() + expiresInS * 1000 - RENEW_EARLY_MS };
        return value;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
};

/**
 * DingTalk's internal-app APIs (oapi): access token, user of an auth code, JSAPI ticket.
 *
 * The access token is kept by each instance: gettoken answers every caller with the same token
 * while it is valid ("有效期内重复获取会返回相同结果并自动续期"). The jsapi_ticket is kept in the
 * database for all of them (`tickets`): DingTalk asks for it to be stored and refreshed under a
 * lock, as a fetch may overwrite the ticket that pages were signed with.
 */
export const createDingtalkClient = (
  { appKey, appSecret, agentId, corpId, apiUrl }: DingtalkSettings,
  tickets: CredentialStore,
) => {
  const endpoint = (path: string, accessToken?: string) => {
    const url = new URL(path, apiUrl);
    if (accessToken) url.searchParams.set('access_token', accessToken);
    return url;
  };
  const post = <T>(url: URL, body: unknown) =>
    providerCall<T>(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const accessToken = cached(async () => {
    const url = endpoint('/gettoken');
    url.searchParams.set('appkey', appKey);
    url.searchParams.set('appsecret', appSecret);
    const reply = await providerCall<{ access_token?: string; expires_in?: number }>(url);
    if (!reply.access_token) throw new ProviderError('gettoken: no access_token');
    return { value: reply.access_token, expiresInS: reply.expires_in ?? 7200 };
  });

  const jsapiTicket = sharedCredential(
    tickets,
    `dingtalk:jsapi_ticket:${appKey}`,
    async () => {
      const reply = await providerCall<{ ticket?: string; expires_in?: number }>(
        endpoint('/get_jsapi_ticket', await accessToken()),
      );
      if (!reply.ticket) throw new ProviderError('get_jsapi_ticket: no ticket');
      return { value: reply.ticket, expiresInS: reply.expires_in ?? 7200 };
    },
    { renewEarlyMs: RENEW_EARLY_MS },
  );

  return {
    /** What dd.config needs for the page at `url`. */
    async jsapiConfig(url: string) {
      const ticket = await jsapiTicket();
      const nonceStr = randomBytes(12).toString('hex');
      const timeStamp = Date.now();
      return {
        agentId,
        corpId,
        timeStamp,
        nonceStr,
        signature: jsapiSignature({ ticket, nonceStr, timeStamp, url }),
      };
    },

    /** The user of a requestAuthCode code (valid once, five minutes) and their mobile number. */
    async userOfCode(code: string): Promise<{ userid: string; mobile: string }> {
      const token = await accessToken();
      const info = await post<{ result?: { userid?: string } }>(
        endpoint('/topapi/v2/user/getuserinfo', token),
        { code },
      );
      const userid = info.result?.userid;
      if (!userid) throw new ProviderError('topapi/v2/user/getuserinfo: no userid');
      const detail = await post<{ result?: { mobile?: string } }>(
        endpoint('/topapi/v2/user/get', token),
        { userid, language: 'zh_CN' },
      );
      return { userid, mobile: detail.result?.mobile ?? '' };
    },
  };
};

export type DingtalkClient = ReturnType<typeof createDingtalkClient>;
