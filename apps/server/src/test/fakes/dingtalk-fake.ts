import { createHash, randomBytes } from 'node:crypto';
import { startFakeHttp, textField } from './fake-http.ts';

const FAKE_DINGTALK_APPKEY = 'ding-fake-appkey';
const FAKE_DINGTALK_APPSECRET = 'ding-fake-appsecret';
const FAKE_DINGTALK_CORP_ID = 'ding-fake-corp';
const FAKE_DINGTALK_AGENT_ID = '100200300';

const CODE_LIFETIME_MS = 5 * 60_000;
const TOKEN_LIFETIME_MS = 7_200_000;

/** What a page's dd.config hands DingTalk to check. */
export interface JsapiCheck {
  /** The page DingTalk loaded (where the browser is, as DingTalk sees it). */
  pageUrl: string;
  nonceStr: string;
  timeStamp: number;
  signature: string;
}

/**
 * DingTalk's check of a page's dd.config: the SHA-1 of `jsapi_ticket=…&noncestr=…&timestamp=…
 * &url=…` over the page's URL without its #fragment ("url（当前网页的URL，不包含#及其后面部分）",
 * DingTalk's signing sample), percent-decoded as that sample decodes it; and the page is the one
 * DingTalk loaded, never an address a single-page app routed to since: "针对VUE单页面应用，鉴权
 * 需要对父页面实现，因为计算签名方法不支持路由页面地址"
 * (https://developers.dingtalk.com/document/isvapp/jsapi-authentication).
 */
const signatureOf = (ticket: string, check: Omit<JsapiCheck, 'signature'>) => {
  let url = check.pageUrl.split('#')[0] ?? '';
  try {
    url = decodeURIComponent(url);
  } catch {
    // signed as given
  }
  return createHash('sha1')
    .update(
      `jsapi_ticket=${ticket}&noncestr=${check.nonceStr}&timestamp=${check.timeStamp}&url=${url}`,
    )
    .digest('hex');
};

/**
 * DingTalk's internal-app server API (oapi.dingtalk.com) as the server meets it: gettoken,
 * get_jsapi_ticket, topapi/v2/user/getuserinfo (auth code → userid, once) and topapi/v2/user/get
 * (mobile). Refusals are HTTP 200 with DingTalk's errcodes. `POST /__fake/code {userid, mobile}`
 * hands out a requestAuthCode code, and `POST /__fake/jsapi-check` (a JsapiCheck) answers
 * `{ ok }` as DingTalk's check of dd.config would, for browser tests that stub the JSAPI in
 * another process.
 *
 * gettoken returns the same token while it is valid and extends it ("有效期内重复获取会返回相同
 * 结果并自动续期"); get_jsapi_ticket hands out a new ticket on every call, the previous one
 * overwritten, which is what DingTalk warns of when each page fetches its own.
 */
export const startDingtalkFake = async () => {
  const users = new Map<string, { mobile: string; name: string }>();
  const codes = new Map<string, { userid: string; expiresAt: number; used: boolean }>();
  let token: { value: string; expiresAt: number } | null = null;
  let ticket: string | null = null;
  const counts = { tokens: 0, tickets: 0 };

  const addUser = (userid: string, mobile: string, name = '钉钉用户') =>
    users.set(userid, { mobile, name });

  const issueCode = (userid: string): string => {
    const code = randomBytes(16).toString('hex');
    codes.set(code, { userid, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
    return code;
  };

  const tokenRefused = { json: { errcode: 40014, errmsg: '不合法的access_token' } };

  const checkJsapi = (check: JsapiCheck) =>
    ticket !== null && signatureOf(ticket, check) === check.signature;

  const fake = await startFakeHttp(({ method, path, query, body }) => {
    if (method === 'POST' && path === '/__fake/code') {
      addUser(textField(body, 'userid'), textField(body, 'mobile'));
      return { json: { code: issueCode(textField(body, 'userid')) } };
    }
    if (method === 'POST' && path === '/__fake/jsapi-check') {
      return {
        json: {
          ok: checkJsapi({
            pageUrl: textField(body, 'pageUrl'),
            nonceStr: textField(body, 'nonceStr'),
            timeStamp: Number(body.timeStamp),
            signature: textField(body, 'signature'),
          }),
        },
      };
    }
    if (method === 'GET' && path === '/gettoken') {
      if (
        query.get('appkey') !== FAKE_DINGTALK_APPKEY ||
        query.get('appsecret') !== FAKE_DINGTALK_APPSECRET
      ) {
        return { json: { errcode: 40089, errmsg: '不合法的corpid或corpsecret' } };
      }
      counts.tokens += 1;
      if (!token || token.expiresAt <= Date.now())
        token = { value: randomBytes(16).toString('hex'), expiresAt: 0 };
      token.expiresAt = Date.now() + TOKEN_LIFETIME_MS;
      return {
        json: { errcode: 0, errmsg: 'ok', access_token: token.value, expires_in: 7200 },
      };
    }
    if (!token || query.get('access_token') !== token.value) return tokenRefused;
    if (token.expiresAt <= Date.now())
      return { json: { errcode: 42001, errmsg: 'access_token超时' } };
    if (method === 'GET' && path === '/get_jsapi_ticket') {
      ticket = randomBytes(20).toString('hex');
      counts.tickets += 1;
      return { json: { errcode: 0, errmsg: 'ok', ticket, expires_in: 7200 } };
    }
    if (method === 'POST' && path === '/topapi/v2/user/getuserinfo') {
      const entry = codes.get(textField(body, 'code'));
      if (!entry || entry.used || entry.expiresAt < Date.now()) {
        return { json: { errcode: 40078, errmsg: '不存在的临时授权码' } };
      }
      entry.used = true;
      return {
        json: {
          errcode: 0,
          errmsg: 'ok',
          result: { userid: entry.userid, device_id: 'fake-device', sys: false, sys_level: 0 },
        },
      };
    }
    if (method === 'POST' && path === '/topapi/v2/user/get') {
      const user = users.get(textField(body, 'userid'));
      if (!user) return { json: { errcode: 60121, errmsg: '找不到该用户' } };
      return {
        json: {
          errcode: 0,
          errmsg: 'ok',
          result: { userid: textField(body, 'userid'), name: user.name, mobile: user.mobile },
        },
      };
    }
    return null;
  });

  return {
    ...fake,
    env: {
      DINGTALK_APPKEY: FAKE_DINGTALK_APPKEY,
      DINGTALK_APPSECRET: FAKE_DINGTALK_APPSECRET,
      DINGTALK_CORP_ID: FAKE_DINGTALK_CORP_ID,
      DINGTALK_AGENT_ID: FAKE_DINGTALK_AGENT_ID,
      DINGTALK_API_URL: fake.baseUrl,
    },
    addUser,
    /** A code as dd.runtime.permission.requestAuthCode would give this user. */
    issueCode,
    /** The jsapi_ticket last handed out (what a signature must be computed over). */
    currentTicket: () => ticket,
    /** Whether DingTalk would accept this dd.config on the page it loaded. */
    checkJsapi,
    /** How many tokens and tickets were handed out (the server should cache them). */
    counts,
  };
};

export type DingtalkFake = Awaited<ReturnType<typeof startDingtalkFake>>;
