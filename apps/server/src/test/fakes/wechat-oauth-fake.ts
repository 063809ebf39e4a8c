import { randomBytes } from 'node:crypto';
import { startFakeHttp, TEST_PUBLIC_URL, textField } from './fake-http.ts';

const FAKE_WECHAT_APPID = 'wx-fake-appid';
const FAKE_WECHAT_SECRET = 'wx-fake-secret';

const CODE_LIFETIME_MS = 5 * 60_000;

/**
 * What WeChat's web authorisation takes as `state`: "重定向后会带上state参数，开发者可以填写
 * a-zA-Z0-9的参数值，最多128字节"
 * (https://developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/Wechat_webpage_authorization.html).
 */
const DOCUMENTED_STATE = /^[a-zA-Z0-9]{0,128}$/;

/**
 * WeChat's official-account web authorisation as the server meets it: the authorise page
 * (/connect/oauth2/authorize, which for snsapi_base returns at once with ?code&state) and the code
 * exchange (/sns/oauth2/access_token). Codes are single-use and expire like WeChat's; refusals
 * are HTTP 200 with WeChat's errcodes. `POST /__fake/user {openid}` names the WeChat user of the
 * next authorisation, for browser tests that run in another process.
 *
 * Like WeChat, it returns only to the account's authorised domain (网页授权域名, the host of
 * `publicUrl`: 10003 "redirect_uri域名与后台配置不一致" otherwise), and it refuses a state outside
 * the documented characters, where WeChat's behaviour is undocumented.
 */
export const startWechatFake = async ({ publicUrl = TEST_PUBLIC_URL } = {}) => {
  const authorisedHost = new URL(publicUrl).host;
  const codes = new Map<string, { openid: string; expiresAt: number; used: boolean }>();
  let currentUser = `o-${randomBytes(8).toString('hex')}`;

  const issueCode = (openid: string): string => {
    const code = randomBytes(16).toString('hex');
    codes.set(code, { openid, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
    return code;
  };

  const fake = await startFakeHttp(({ method, path, query, body }) => {
    if (method === 'POST' && path === '/__fake/user') {
      currentUser = textField(body, 'openid');
      return { json: { ok: true } };
    }
    if (method === 'GET' && path === '/connect/oauth2/authorize') {
      if (query.get('appid') !== FAKE_WECHAT_APPID) {
        return { json: { errcode: 40013, errmsg: 'invalid appid' } };
      }
      if (query.get('scope') !== 'snsapi_base') {
        return { json: { errcode: 10005, errmsg: '此公众号并没有这些scope的权限' } };
      }
      let back: URL;
      try {
        back = new URL(query.get('redirect_uri') ?? '');
      } catch {
        return { json: { errcode: 10003, errmsg: 'redirect_uri域名与后台配置不一致' } };
      }
      if (back.host !== authorisedHost) {
        return { json: { errcode: 10003, errmsg: 'redirect_uri域名与后台配置不一致' } };
      }
      if (!DOCUMENTED_STATE.test(query.get('state') ?? '')) {
        return { json: { errcode: -1, errmsg: 'state: a-zA-Z0-9, at most 128 bytes' } };
      }
      back.searchParams.set('code', issueCode(currentUser));
      back.searchParams.set('state', query.get('state') ?? '');
      return { redirect: back.toString() };
    }
    if (method === 'GET' && path === '/sns/oauth2/access_token') {
      if (query.get('appid') !== FAKE_WECHAT_APPID || query.get('secret') !== FAKE_WECHAT_SECRET) {
        return { json: { errcode: 40125, errmsg: 'invalid appsecret' } };
      }
      if (query.get('grant_type') !== 'authorization_code') {
        return { json: { errcode: 40002, errmsg: 'invalid grant_type' } };
      }
      const entry = codes.get(query.get('code') ?? '');
      if (!entry || entry.expiresAt < Date.now()) {
        return { json: { errcode: 40029, errmsg: 'invalid code' } };
      }
      if (entry.used) return { json: { errcode: 40163, errmsg: 'code been used' } };
      entry.used = true;
      return {
        json: {
          access_token: randomBytes(16).toString('hex'),
          expires_in: 7200,
          refresh_token: randomBytes(16).toString('hex'),
          openid: entry.openid,
          scope: 'snsapi_base',
        },
      };
    }
    return null;
  });

  return {
    ...fake,
    /** What the server's configuration needs to use this fake. */
    env: {
      WECHAT_APPID: FAKE_WECHAT_APPID,
      WECHAT_SECRET: FAKE_WECHAT_SECRET,
      WECHAT_API_URL: fake.baseUrl,
      WECHAT_OAUTH_URL: `${fake.baseUrl}/connect/oauth2/authorize`,
    },
    /** A code as WeChat would return it for this user after authorisation. */
    issueCode,
    /** The WeChat user of the next authorisation through the authorise page. */
    setUser: (openid: string) => {
      currentUser = openid;
    },
  };
};

export type WechatFake = Awaited<ReturnType<typeof startWechatFake>>;
