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
  /** Sends refused for their data (47003, or a template_id unknown: 40037), with WeChat's errmsg. */
  refusedData: string[];
  /** Access tokens handed out, by either endpoint. */
  tokensIssued(): number;
  /** stable_token calls in force_refresh mode (WeChat allows 20 a day). */
  forcedRefreshes(): number;
  /** API calls refused because their access token was not, or no longer, valid. */
  refusedForToken(): number;
  /**
   * Makes the stable token invalid at once, as a force refresh by another holder does (what
   * WeChat advises when a token leaked).
   */
  revokeToken(): void;
  /** Moves the fake's clock on: tokens expire and overlaps end by it. */
  advance(ms: number): void;
}

/**
 * The official account's templates: template_id → the fields its content names ({{thing1.DATA}}
 * …). `tpl-1` is a category template of the kind a factory picks for machine alerts.
 */
export const FAKE_TEMPLATES: Record<string, readonly string[]> = {
  'tpl-1': ['thing1', 'character_string2', 'thing3', 'time4'],
};

/**
 * Why WeChat would not show `value` in `key` as sent, or null. Category-template fields follow
 * WeChat's table of values (参数值内容限制说明), refused with 47003 "argument invalid!
 * data.<key>.value invalid": thing "20个以内字符", character_string "32位以内数字、字母或符号",
 * time "24小时制时间格式（支持+年月日）… 例如：15:01，或：2019年10月1日 15:01", date "年月日格式",
 * phrase "5个以内汉字", number "32位以内数字". What WeChat accepts but drops or cuts since
 * 2023-05-04 ("去除首行内容", "去除尾部/备注内容", "单个字段内容不超过20个字，且不支持换行") is
 * refused here too, so a test sees what no one would read.
 */
const fieldProblem = (key: string, value: string): string | null => {
  const type = /^([a-z_]+?)\d*$/.exec(key)?.[1] ?? key;
  const length = [...value].length;
  switch (type) {
    case 'first':
    case 'remark':
      return 'dropped: WeChat no longer shows the first line or the remark';
    case 'thing':
    case 'keyword':
      return length === 0 || length > 20 || /[\r\n]/.test(value) ? 'invalid' : null;
    case 'character_string':
      return length === 0 || length > 32 || !/^[\x21-\x7e]+$/.test(value) ? 'invalid' : null;
    case 'number':
      return /^\d{1,32}(\.\d+)?$/.test(value) ? null : 'invalid';
    case 'phrase':
      return /^\p{Script=Han}{1,5}$/u.test(value) ? null : 'invalid';
    case 'time':
      return /^(\d{4}年\d{1,2}月\d{1,2}日 |\d{4}-\d{2}-\d{2} )?\d{1,2}:\d{2}(:\d{2})?$/.test(value)
        ? null
        : 'invalid';
    case 'date':
      return /^(\d{4}年\d{1,2}月\d{1,2}日|\d{4}-\d{2}-\d{2})( \d{1,2}:\d{2})?$/.test(value)
        ? null
        : 'invalid';
    default:
      return 'not a field type this fake knows';
  }
};

/** WeChat's answer to a message's data for a template, or null when it would show it whole. */
const refusal = (message: WechatTemplateMessage) => {
  const fields = FAKE_TEMPLATES[message.template_id];
  if (!fields) return { errcode: 40037, errmsg: 'invalid template_id' };
  const data = message.data ?? {};
  for (const key of new Set([...fields, ...Object.keys(data)])) {
    const value = data[key]?.value;
    const problem = !fields.includes(key)
      ? 'not a field of the template'
      : typeof value !== 'string'
        ? 'missing'
        : fieldProblem(key, value);
    if (problem)
      return { errcode: 47003, errmsg: `argument invalid! data.${key}.value ${problem}` };
  }
  return null;
};

const LIFETIME_MS = 7_200_000;
/** Both token endpoints: the old token stays valid this long once a new one is out. */
const OVERLAP_MS = 5 * 60_000;
const FORCE_SPACING_MS = 30_000;
const FORCES_A_DAY = 20;

interface Token {
  value: string;
  expiresAt: number;
  /** Invalid from then on (replaced, or force-refreshed away). */
  revokedAt: number;
}

/**
 * The WeChat Official Account API as the server uses it, with WeChat's documented token rules
 * (developers.weixin.qq.com, "获取接口调用凭据" and "获取稳定版接口调用凭据"):
 * - GET /cgi-bin/token issues a new token on every call, and the previous one stops working
 *   five minutes later ("重复获取将导致上次获取的access_token失效" … "5分钟内，新老access_token都可用");
 * - POST /cgi-bin/stable_token, isolated from the former, returns the same token while it has
 *   more than five minutes left (normal mode; in its last five minutes a new one, the old still
 *   valid until it expires), and with force_refresh a new one at once, the previous invalid (at
 *   most 20 a day, 30 s apart: "否则不会刷新");
 * - POST /cgi-bin/message/template/send?access_token=… refuses an invalid token with 40001 and
 *   an expired one with 42001, as WeChat's global return codes say, and data its template would
 *   not show whole (FAKE_TEMPLATES, fieldProblem).
 */
export const startWechatMessageFake = async (credentials: {
  appId: string;
  appSecret: string;
}): Promise<WechatMessageFake> => {
  const messages: WechatTemplateMessage[] = [];
  const refusedData: string[] = [];
  const seen = new Set<string>();
  const tokens = new Map<string, Token>();
  let plain: Token | null = null;
  let stable: Token | null = null;
  let issued = 0;
  let offset = 0;
  let refused = 0;
  const forced: number[] = [];
  const now = () => Date.now() + offset;

  const issue = (): Token => {
    const token = {
      value: `wx-token-${++issued}`,
      expiresAt: now() + LIFETIME_MS,
      revokedAt: Infinity,
    };
    tokens.set(token.value, token);
    return token;
  };
  const answer = (token: Token) => ({
    access_token: token.value,
    expires_in: Math.floor((token.expiresAt - now()) / 1000),
  });
  const badCredentials = (appid: unknown, secret: unknown) =>
    appid !== credentials.appId || secret !== credentials.appSecret;

  const stableToken = (body: Record<string, unknown>) => {
    if (body.grant_type !== 'client_credential')
      return { errcode: 40002, errmsg: 'invalid grant_type' };
    if (badCredentials(body.appid, body.secret)) return { errcode: 40013, errmsg: 'invalid appid' };
    const t = now();
    if (body.force_refresh === true) {
      const today = forced.filter((at) => at > t - 86_400_000);
      if (stable && today.length > 0 && t - today.at(-1)! < FORCE_SPACING_MS) return answer(stable);
      if (today.length >= FORCES_A_DAY)
        return { errcode: 45009, errmsg: 'reach max api daily quota limit' };
      forced.push(t);
      if (stable) stable.revokedAt = t;
      stable = issue();
      return answer(stable);
    }
    if (!stable || stable.revokedAt <= t || stable.expiresAt - t <= OVERLAP_MS) stable = issue();
    return answer(stable);
  };

  const server = await startFakeServer(
    (r) => {
      if (r.url.pathname === '/cgi-bin/token') {
        const q = r.url.searchParams;
        if (badCredentials(q.get('appid'), q.get('secret')))
          return { errcode: 40013, errmsg: 'invalid appid' };
        if (plain) plain.revokedAt = Math.min(plain.revokedAt, now() + OVERLAP_MS);
        plain = issue();
        return answer(plain);
      }
      if (r.url.pathname === '/cgi-bin/stable_token') {
        if (r.method !== 'POST') return { errcode: 43002, errmsg: 'require POST method' };
        return stableToken((r.json ?? {}) as Record<string, unknown>);
      }
      if (r.url.pathname === '/cgi-bin/message/template/send') {
        const token = tokens.get(r.url.searchParams.get('access_token') ?? '');
        if (!token || token.revokedAt <= now()) {
          refused++;
          return {
            errcode: 40001,
            errmsg: 'invalid credential, access_token is invalid or not latest',
          };
        }
        if (token.expiresAt <= now()) {
          refused++;
          return { errcode: 42001, errmsg: 'access_token expired' };
        }
        const message = r.json as WechatTemplateMessage;
        const invalid = refusal(message);
        if (invalid) {
          refusedData.push(invalid.errmsg);
          return invalid;
        }
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
    refusedData,
    tokensIssued: () => issued,
    forcedRefreshes: () => forced.length,
    refusedForToken: () => refused,
    revokeToken: () => {
      if (stable) stable.revokedAt = now();
    },
    advance: (ms: number) => {
      offset += ms;
    },
  });
};
