import { adminApi } from '@linewatch/contracts/admin-api';
import { messages } from '@linewatch/contracts/envelope';
import { identityMessages } from '@linewatch/contracts/identity';
import { ADMIN_ROLE, GRANTED_ROLES, identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestUser } from '../test/factories.ts';
import { startDingtalkFake, type DingtalkFake } from '../test/fakes/dingtalk-fake.ts';
import { TEST_PUBLIC_URL } from '../test/fakes/fake-http.ts';
import { startWechatFake, type WechatFake } from '../test/fakes/wechat-oauth-fake.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createWechatClient } from './wechat-client.ts';
import { ProviderError } from './provider-http.ts';

// WeChat and DingTalk sign-in against fakes that speak the platforms' HTTP APIs: the server's own
// clients make the calls. A `Phone` keeps its cookies as a browser would.

let server: TestServer;
let wechat: WechatFake;
let dingtalk: DingtalkFake;
let make: ReturnType<typeof factories>;

beforeAll(async () => {
  [wechat, dingtalk] = await Promise.all([startWechatFake(), startDingtalkFake()]);
  server = await startTestServer({ ...wechat.env, ...dingtalk.env, PUBLIC_URL: TEST_PUBLIC_URL });
  make = factories(server.linewatch);
});
afterAll(async () => {
  await server?.close();
  await Promise.all([wechat?.close(), dingtalk?.close()]);
});

interface Reply<T> {
  status: number;
  body: { success: boolean; code: string; msg: string; data: T };
  headers: Headers;
}

/** A browser: a cookie jar, and the keyId header once signed in. */
class Phone {
  readonly cookies = new Map<string, string>();
  keyId: string | null = null;

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers: Record<string, string> = {
      ...(cookie ? { cookie } : {}),
      ...(this.keyId ? { [KEY_ID_HEADER]: this.keyId } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    };
    const response = await fetch(url.startsWith('http') ? url : server.baseUrl + url, {
      ...init,
      headers,
      redirect: 'manual',
    });
    for (const set of response.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(set))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<Reply<T>> {
    const response = await this.fetch(path, init);
    return {
      status: response.status,
      body: (await response.json()) as Reply<T>['body'],
      headers: response.headers,
    };
  }

  post<T>(path: string, body: unknown = {}) {
    return this.json<T>(path, { method: 'POST', body: JSON.stringify(body) });
  }

  /** The guard sends a WeChat browser without a token to authorise; WeChat returns at once. */
  async authorize(redirect: string): Promise<URL> {
    const start = await this.fetch(
      `${identityApi.wechatAuthorize.path}?${new URLSearchParams({ redirect })}`,
    );
    expect(start.status).toBe(302);
    const atWechat = await this.fetch(start.headers.get('location') ?? '');
    expect(atWechat.status).toBe(302);
    return new URL(atWechat.headers.get('location') ?? '');
  }

  /** Through WeChat's authorisation and back: what /api/wechat/userInfo answers. */
  async visitFromWechat(redirect = '/') {
    const back = await this.authorize(redirect);
    return this.wechatUserInfo(back.searchParams.get('code')!, back.searchParams.get('state'));
  }

  wechatUserInfo(code: string, state: string | null) {
    const query = new URLSearchParams({ code, ...(state === null ? {} : { state }) });
    return this.json<{ openId: string; keyId?: string }>(
      `${identityApi.wechatUserInfo.path}?${query}`,
    );
  }

  dingtalkConfig(url = `${TEST_PUBLIC_URL}/center`) {
    return this.json<DingtalkConfig>(
      `${identityApi.dingdingConfig.path}?${new URLSearchParams({ url })}`,
    );
  }

  /** The DingTalk login page: the config (with this browser's state), then the code. */
  async dingtalkUserInfo(code: string) {
    const config = await this.dingtalkConfig();
    return this.dingtalkCode(code, config.body.data.state);
  }

  dingtalkCode(code: string, state: string | null) {
    const query = new URLSearchParams({ code, ...(state === null ? {} : { state }) });
    return this.json<{ userid: string; mobile: string; keyId?: string }>(
      `${identityApi.dingdingUserInfo.path}?${query}`,
    );
  }
}

interface DingtalkConfig {
  agentId: string;
  corpId: string;
  timeStamp: number;
  nonceStr: string;
  signature: string;
  state: string;
}

const bind = (phone: Phone, user: TestUser, extra: Record<string, string>, path: string) =>
  phone.post<{ keyId: string }>(path, {
    psnCode: user.psnCode,
    passWord: encryptPassword(user.password),
    ...extra,
  });

const identitiesOf = (userId: number) =>
  server.linewatch.database.db
    .selectFrom('user_identities')
    .select(['provider', 'subject'])
    .where('user_id', '=', userId)
    .orderBy('provider')
    .execute();

const newOpenId = () => `o-${randomBytes(8).toString('hex')}`;

/** A user who bound WeChat (first visit, then the password), signed in on the phone returned. */
const bindWechat = async (user: TestUser, openId = newOpenId()) => {
  wechat.setUser(openId);
  const phone = new Phone();
  await phone.visitFromWechat();
  const reply = await bind(phone, user, { openId }, identityApi.wechatBindUser.path);
  phone.keyId = reply.body.data.keyId;
  return { phone, openId };
};

/** A user who bound DingTalk (first code, then the password). */
const bindDingtalk = async (user: TestUser, userid: string) => {
  const phone = new Phone();
  await phone.dingtalkUserInfo(dingtalk.issueCode(userid));
  const reply = await bind(
    phone,
    user,
    { dingDingUserId: userid },
    identityApi.dingdingBindUser.path,
  );
  expect(reply.body.code).toBe('0000');
  phone.keyId = reply.body.data.keyId;
  return phone;
};

describe('WeChat sign-in', () => {
  it('sends a browser to WeChat with snsapi_base and a state bound to it by a cookie', async () => {
    const phone = new Phone();
    const start = await phone.fetch(`${identityApi.wechatAuthorize.path}?redirect=%2FdeviceList`);
    expect(start.status).toBe(302);
    const target = new URL(start.headers.get('location') ?? '');
    expect(target.origin + target.pathname).toBe(wechat.env.WECHAT_OAUTH_URL);
    expect(target.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      appid: wechat.env.WECHAT_APPID,
      response_type: 'code',
      scope: 'snsapi_base',
      redirect_uri: `${TEST_PUBLIC_URL}/login?redirect=%2FdeviceList`,
    });
    const state = target.searchParams.get('state');
    expect(state?.length).toBeGreaterThanOrEqual(32);
    // "开发者可以填写a-zA-Z0-9的参数值，最多128字节" (WeChat's web authorisation).
    expect(state).toMatch(/^[a-zA-Z0-9]{1,128}$/);
    expect(phone.cookies.get('lw_oauth_state')).toBe(state);
    expect(start.headers.getSetCookie().join()).toMatch(/lw_oauth_state=[^;]+;.*HttpOnly/i);
  });

  it('never sends anyone back to another site after authorisation', async () => {
    const back = await new Phone().authorize('//evil.example/x');
    expect(back.origin).toBe(TEST_PUBLIC_URL);
    expect(back.searchParams.get('redirect')).toBe('/');
  });

  it('builds the return address from PUBLIC_URL, whatever Host the request names', async () => {
    const location = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.baseUrl);
      httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `${identityApi.wechatAuthorize.path}?redirect=%2Fcenter`,
          headers: { host: 'evil.example' },
        },
        (response) => {
          response.resume();
          resolve(response.headers.location ?? '');
        },
      )
        .on('error', reject)
        .end();
    });
    const target = new URL(location);
    expect(target.searchParams.get('redirect_uri')).toBe(
      `${TEST_PUBLIC_URL}/login?redirect=%2Fcenter`,
    );
    // WeChat returns only to the account's authorised domain: there the flow goes on.
    const atWechat = await fetch(location, { redirect: 'manual' });
    expect(atWechat.status).toBe(302);
  });

  it('first visit binds the openId with the password; the next visit signs in silently', async () => {
    const user = await make.createUser({ name: '王微信' });
    const openId = newOpenId();
    wechat.setUser(openId);
    const phone = new Phone();

    // First visit: WeChat knows the openId, no account has it yet.
    const back = await phone.authorize('/deviceList');
    expect(back.pathname).toBe('/login');
    expect(back.searchParams.get('redirect')).toBe('/deviceList');
    const first = await phone.wechatUserInfo(
      back.searchParams.get('code')!,
      back.searchParams.get('state'),
    );
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: '0000', data: { openId } });
    expect(first.body.data.keyId).toBeUndefined();
    expect(phone.cookies.has(KEY_ID_COOKIE)).toBe(false);

    const bound = await bind(phone, user, { openId }, identityApi.wechatBindUser.path);
    expect(bound.body).toMatchObject({ code: '0000', msg: identityMessages.loginOk });
    expect(await identitiesOf(user.id)).toEqual([{ provider: 'wechat', subject: openId }]);

    // Next visit, a new webview: nothing typed.
    const later = new Phone();
    const again = await later.authorize('/center');
    const silent = await later.wechatUserInfo(
      again.searchParams.get('code')!,
      again.searchParams.get('state'),
    );
    expect(silent.body).toMatchObject({ code: '0000', msg: identityMessages.loginOk });
    const keyId = silent.body.data.keyId!;
    expect(keyId).toBeTruthy();
    expect(later.cookies.get(KEY_ID_COOKIE)).toBe(keyId);
    later.keyId = keyId;
    const profile = await later.json<{ name: string; signedInWith: string; roles: string[] }>(
      identityApi.userProfile.path,
    );
    expect(profile.body.data).toMatchObject({
      name: '王微信',
      signedInWith: 'wechat',
      roles: [...GRANTED_ROLES],
    });
  });

  it('refuses a replayed code, and the client reports WeChat refusing one', async () => {
    const phone = new Phone();
    const back = await phone.authorize('/deviceList');
    const code = back.searchParams.get('code')!;
    const state = back.searchParams.get('state');
    expect((await phone.wechatUserInfo(code, state)).body.code).toBe('0000');

    // Same browser, same code (the state cookie is spent too: a fresh one is set for the replay).
    const replay = new Phone();
    const fresh = await replay.authorize('/deviceList');
    const refused = await replay.wechatUserInfo(code, fresh.searchParams.get('state'));
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({
      success: false,
      code: '0500',
      msg: identityMessages.openIdFailed,
      data: null,
    });

    // WeChat itself refuses a used code (errcode 40163): the client turns that into an error.
    const client = createWechatClient({
      appId: wechat.env.WECHAT_APPID,
      secret: wechat.env.WECHAT_SECRET,
      apiUrl: wechat.env.WECHAT_API_URL,
      oauthUrl: wechat.env.WECHAT_OAUTH_URL,
    });
    const once = wechat.issueCode('o-client');
    await expect(client.openIdOf(once)).resolves.toBe('o-client');
    await expect(client.openIdOf(once)).rejects.toThrow(ProviderError);
    await expect(client.openIdOf(once)).rejects.toThrow(/40163/);
  });

  it('refuses a wrong or missing state, before spending the code', async () => {
    const phone = new Phone();
    const back = await phone.authorize('/deviceList');
    const code = back.searchParams.get('code')!;
    for (const state of ['forged-state', null]) {
      const reply = await phone.wechatUserInfo(code, state);
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({
        code: '0410',
        msg: identityMessages.authorizationExpired,
      });
    }
    // Another browser holding the right state value but not the cookie: refused too.
    const stranger = await new Phone().wechatUserInfo(code, back.searchParams.get('state'));
    expect(stranger.body.code).toBe('0410');
  });

  it('binds only the openId WeChat gave this browser', async () => {
    const victim = newOpenId();
    const attacker = await make.createUser();
    // No authorisation at all.
    const bare = await bind(
      new Phone(),
      attacker,
      { openId: victim },
      identityApi.wechatBindUser.path,
    );
    expect(bare.body).toMatchObject({ code: '0410', msg: identityMessages.authorizationExpired });
    // Authorised as someone else, claiming the victim's openId.
    wechat.setUser(newOpenId());
    const phone = new Phone();
    await phone.visitFromWechat();
    const claimed = await bind(
      phone,
      attacker,
      { openId: victim },
      identityApi.wechatBindUser.path,
    );
    expect(claimed.body).toMatchObject({
      code: '0410',
      msg: identityMessages.authorizationExpired,
    });
    expect(await identitiesOf(attacker.id)).toEqual([]);
  });

  it('unbinds WeChat on logout: the next visit asks for the password again', async () => {
    const user = await make.createUser();
    const { phone, openId } = await bindWechat(user);

    const out = await phone.post(identityApi.wechatSignOut.path);
    expect(out.body.code).toBe('0000');
    expect(await identitiesOf(user.id)).toEqual([]);
    const gone = await phone.post(identityApi.userInfo.path);
    expect(gone.body).toMatchObject({ code: '0405', msg: messages.notSignedIn });

    const reply = await new Phone().visitFromWechat();
    expect(reply.body.data).toEqual({ openId });
  });
});

describe('DingTalk sign-in', () => {
  it('signs the JSAPI config with the documented SHA-1 over the fake ticket, ticket cached', async () => {
    const url = `${TEST_PUBLIC_URL}/login?redirect=%2FdeviceList`;
    const phone = new Phone();
    const reply = await phone.dingtalkConfig(url);
    expect(reply.body.code).toBe('0000');
    const config = reply.body.data;
    expect(config).toMatchObject({
      agentId: dingtalk.env.DINGTALK_AGENT_ID,
      corpId: dingtalk.env.DINGTALK_CORP_ID,
    });
    const ticket = dingtalk.currentTicket();
    expect(ticket).toBeTruthy();
    const plain =
      `jsapi_ticket=${ticket}&noncestr=${config.nonceStr}&timestamp=${config.timeStamp}` +
      `&url=${decodeURIComponent(url)}`;
    expect(config.signature).toBe(createHash('sha1').update(plain).digest('hex'));

    const second = await phone.dingtalkConfig(url);
    expect(second.body.code).toBe('0000');
    expect(dingtalk.counts).toEqual({ tokens: 1, tickets: 1 });
  });

  it('signs pages of this app only, as DingTalk checks them on the page it loaded', async () => {
    const phone = new Phone();
    const entry = `${TEST_PUBLIC_URL}/center?from=menu`;
    const config = (await phone.dingtalkConfig(entry)).body.data;
    const check = { nonceStr: config.nonceStr, timeStamp: config.timeStamp };
    expect(dingtalk.checkJsapi({ ...check, pageUrl: entry, signature: config.signature })).toBe(
      true,
    );
    // The same page with a fragment is the same page to DingTalk; a routed address is not.
    expect(
      dingtalk.checkJsapi({ ...check, pageUrl: `${entry}#top`, signature: config.signature }),
    ).toBe(true);
    expect(
      dingtalk.checkJsapi({
        ...check,
        pageUrl: `${TEST_PUBLIC_URL}/login`,
        signature: config.signature,
      }),
    ).toBe(false);

    // Another site's page is not signed: a signature for it would let that page act as this app.
    for (const url of ['https://evil.example/center', 'http://linewatch.test/center']) {
      const foreign = await phone.dingtalkConfig(url);
      expect(foreign.body).toMatchObject({ code: '0400', msg: identityMessages.urlNotOurs });
    }
  });

  it("refuses a code without this browser's state, before spending it (login CSRF)", async () => {
    const userid = `ding-${randomBytes(4).toString('hex')}`;
    dingtalk.addUser(userid, '13700000000');
    await bindDingtalk(await make.createUser(), userid);
    // The attacker's own code, sent to the victim's browser, which never asked for a config.
    const code = dingtalk.issueCode(userid);
    const victim = new Phone();
    for (const state of [null, 'forged']) {
      const reply = await victim.dingtalkCode(code, state);
      expect(reply.body).toMatchObject({
        code: '0410',
        msg: identityMessages.authorizationExpired,
      });
      expect(victim.cookies.has(KEY_ID_COOKIE)).toBe(false);
    }
    // The state of another browser (the attacker's) does not fit the victim's cookie either.
    const attacker = new Phone();
    const state = (await attacker.dingtalkConfig()).body.data.state;
    await victim.dingtalkConfig();
    expect((await victim.dingtalkCode(code, state)).body.code).toBe('0410');
    // The code was not spent by the refusals, and a state is good for one code.
    const own = await attacker.dingtalkCode(code, state);
    expect(own.body.data.keyId).toBeTruthy();
    expect((await attacker.dingtalkCode(dingtalk.issueCode(userid), state)).body.code).toBe('0410');
  });

  it('binds a pending identity once: the same cookie replayed cannot move it to another account', async () => {
    const [first, second] = [await make.createUser(), await make.createUser()];
    const userid = `ding-${randomBytes(4).toString('hex')}`;
    dingtalk.addUser(userid, '13600000000');
    const phone = new Phone();
    await phone.dingtalkUserInfo(dingtalk.issueCode(userid));
    const pending = new Map(phone.cookies);
    const claim = { dingDingUserId: userid, mobile: '13600000000' };
    const bound = await bind(phone, first, claim, identityApi.dingdingBindUser.path);
    expect(bound.body.code).toBe('0000');

    const replay = new Phone();
    for (const [name, value] of pending) replay.cookies.set(name, value);
    const moved = await bind(replay, second, claim, identityApi.dingdingBindUser.path);
    expect(moved.body).toMatchObject({ code: '0410', msg: identityMessages.authorizationExpired });
    expect(await identitiesOf(first.id)).toEqual([{ provider: 'dingtalk', subject: userid }]);
    expect(await identitiesOf(second.id)).toEqual([]);
  });

  it('first code binds with the password (mobile kept); the next code signs in silently', async () => {
    const user = await make.createUser({ name: '李钉钉' });
    const userid = `ding-${randomBytes(4).toString('hex')}`;
    dingtalk.addUser(userid, '13800138000');
    const phone = new Phone();
    const first = await phone.dingtalkUserInfo(dingtalk.issueCode(userid));
    expect(first.body).toEqual({
      success: true,
      code: '0000',
      msg: identityMessages.dingTalkNotBound,
      data: { userid, mobile: '13800138000' },
    });
    const bound = await bind(
      phone,
      user,
      { dingDingUserId: userid, mobile: '13800138000' },
      identityApi.dingdingBindUser.path,
    );
    expect(bound.body).toMatchObject({ code: '0000', msg: identityMessages.loginOk });
    expect(await identitiesOf(user.id)).toEqual([{ provider: 'dingtalk', subject: userid }]);

    const later = new Phone();
    const silent = await later.dingtalkUserInfo(dingtalk.issueCode(userid));
    expect(silent.body).toMatchObject({ code: '0000', msg: identityMessages.loginOk });
    later.keyId = silent.body.data.keyId!;
    const profile = await later.json<{ mobile: string; signedInWith: string }>(
      identityApi.userProfile.path,
    );
    expect(profile.body.data).toMatchObject({ mobile: '13800138000', signedInWith: 'dingtalk' });

    // A replayed DingTalk code is refused.
    const code = dingtalk.issueCode(userid);
    expect((await new Phone().dingtalkUserInfo(code)).body.code).toBe('0000');
    expect((await new Phone().dingtalkUserInfo(code)).body).toMatchObject({
      code: '0500',
      msg: identityMessages.loginFailed,
    });

    // Logout from DingTalk unbinds DingTalk only.
    await later.post(identityApi.dingdingSignOut.path);
    expect(await identitiesOf(user.id)).toEqual([]);
  });

  it("never lets one provider's id sign in as another provider's account", async () => {
    const user = await make.createUser();
    const shared = `same-${randomBytes(4).toString('hex')}`;
    await bindWechat(user, shared);

    dingtalk.addUser(shared, '13900000000');
    const reply = await new Phone().dingtalkUserInfo(dingtalk.issueCode(shared));
    expect(reply.body.data.keyId).toBeUndefined();
    expect(reply.body.msg).toBe(identityMessages.dingTalkNotBound);
    // And a DingTalk pending identity cannot bind as WeChat.
    const ding = new Phone();
    await ding.dingtalkUserInfo(dingtalk.issueCode(shared));
    const crossed = await bind(ding, user, { openId: shared }, identityApi.wechatBindUser.path);
    expect(crossed.body.code).toBe('0410');
  });
});

describe('a password reset', () => {
  // Someone who once knew the password bound their own WeChat or DingTalk: a reset (the password
  // leaked, or was forgotten: the admin cannot tell) must not leave them a silent way back in.
  it('ends every session and unbinds WeChat and DingTalk: the next visit asks for the new password', async () => {
    const user = await make.createUser();
    const { phone, openId } = await bindWechat(user);
    const userid = `ding-${randomBytes(4).toString('hex')}`;
    dingtalk.addUser(userid, '13500000000');
    await bindDingtalk(user, userid);
    expect(await identitiesOf(user.id)).toHaveLength(2);

    const admin = await make.createUser({ isAdmin: true });
    const adminPhone = new Phone();
    adminPhone.keyId = (
      await bind(adminPhone, admin, {}, identityApi.wechatBindUser.path)
    ).body.data.keyId;
    const reset = await adminPhone.post(adminApi.resetPassword.path, {
      id: user.id,
      password: 'a-new-password-1',
    });
    expect(reset.body.code).toBe('0000');

    expect((await phone.post(identityApi.userInfo.path)).body.code).toBe('0405');
    expect(await identitiesOf(user.id)).toEqual([]);
    wechat.setUser(openId);
    const again = await new Phone().visitFromWechat();
    expect(again.body.data).toEqual({ openId });
    const ding = await new Phone().dingtalkUserInfo(dingtalk.issueCode(userid));
    expect(ding.body.msg).toBe(identityMessages.dingTalkNotBound);
  });
});

describe('the audit log of sign-ins', () => {
  interface Entry {
    actorName: string;
    action: string;
    target: string;
    after: Record<string, unknown> | null;
  }
  const auditLog = async () => {
    const admin = await make.createUser({ isAdmin: true });
    const phone = new Phone();
    phone.keyId = (await bind(phone, admin, {}, identityApi.wechatBindUser.path)).body.data.keyId;
    const reply = await phone.json<{ data: Entry[] }>(
      `${adminApi.audit.path}?pageIndex=1&pageSize=100`,
    );
    return reply.body.data.data;
  };
  const wrong = (psnCode: string) =>
    new Phone().post(identityApi.wechatBindUser.path, {
      psnCode,
      passWord: encryptPassword('not-the-password'),
    });

  it('holds each sign-in by its method, bindings and unbindings, and failures counted, not listed', async () => {
    const user = await make.createUser({ name: '审计' });
    const target = `user:${user.psnCode}`;
    const { phone, openId } = await bindWechat(user);
    wechat.setUser(openId);
    expect((await new Phone().visitFromWechat()).body.data.keyId).toBeTruthy();
    // Guessing: twelve wrong passwords for the account (the throttle stops them after five).
    for (let i = 0; i < 12; i++) await wrong(user.psnCode);
    await phone.post(identityApi.wechatSignOut.path);

    const mine = (await auditLog()).filter((e) => e.target === target).reverse();
    expect(mine.map((e) => [e.action, e.after?.method ?? e.after?.provider])).toEqual([
      ['identity.bind', 'wechat'],
      ['signIn', 'password'],
      ['signIn', 'wechat'],
      ['signIn.failed', undefined],
      ['identity.unbind', 'wechat'],
    ]);
    expect(mine[3]!.after).toMatchObject({
      count: 5,
      methods: ['password'],
      reasons: ['wrongCredentials'],
      addresses: ['127.0.0.1'],
    });
  });

  it('counts failures for accounts that do not exist by address, and sign-ins refused by a platform', async () => {
    const byAddress = async () =>
      (await auditLog()).find((e) => e.target === 'address:127.0.0.1')?.after ?? { count: 0 };
    const before = Number((await byAddress()).count);
    await wrong('nobody-1');
    await wrong('nobody-2');
    await new Phone().dingtalkUserInfo('made-up-code');
    const after = await byAddress();
    expect(Number(after.count) - before).toBe(3);
    expect(after.methods).toEqual(expect.arrayContaining(['password', 'dingtalk']));
    expect(after.reasons).toEqual(expect.arrayContaining(['wrongCredentials', 'providerRefused']));
  });
});

describe('the replies of docs/product.md section 8', () => {
  it('answers each sign-in outcome with its code and message', async () => {
    const user = await make.createUser({ isAdmin: true });
    const phone = new Phone();
    const ok = await bind(phone, user, {}, identityApi.wechatBindUser.path);
    expect(ok.body).toMatchObject({ code: '0000', msg: '登录成功' });

    const wrong = await phone.post(identityApi.wechatBindUser.path, {
      psnCode: user.psnCode,
      passWord: encryptPassword('nope'),
    });
    expect(wrong.body).toMatchObject({ code: '0410', msg: identityMessages.wrongCredentials });

    const noCode = await phone.json(`${identityApi.wechatUserInfo.path}?code=`);
    expect(noCode.body).toMatchObject({ code: '0400', msg: '未获取到code' });
    const noDingCode = await phone.json(identityApi.dingdingUserInfo.path);
    expect(noDingCode.body).toMatchObject({ code: '0400', msg: '未获取到code' });

    const back = await phone.authorize('/');
    const unknown = await phone.wechatUserInfo('made-up-code', back.searchParams.get('state'));
    expect(unknown.body).toMatchObject({ code: '0500', msg: '获取openid失败' });

    const badDing = await phone.dingtalkUserInfo('made-up-code');
    expect(badDing.body).toMatchObject({ code: '0500', msg: '登录失败' });

    dingtalk.addUser('unbound-ding', '');
    const unbound = await phone.dingtalkUserInfo(dingtalk.issueCode('unbound-ding'));
    expect(unbound.body.msg).toBe('钉钉未绑定用户请登录');

    const signedOut = await new Phone().json(identityApi.userProfile.path);
    expect(signedOut.body).toMatchObject({ code: '0405', msg: '请重新登录' });

    phone.keyId = ok.body.data.keyId;
    const profile = await phone.json<{ roles: string[]; isAdmin: boolean }>(
      identityApi.userProfile.path,
    );
    expect(profile.body.data).toMatchObject({
      isAdmin: true,
      roles: [...GRANTED_ROLES, ADMIN_ROLE],
      signedInWith: 'password',
    });
  });

  it('a plain logout ends the session and keeps the bindings', async () => {
    const user = await make.createUser();
    const { openId } = await bindWechat(user);
    const browser = new Phone();
    browser.keyId = (
      await bind(browser, user, {}, identityApi.wechatBindUser.path)
    ).body.data.keyId;
    expect((await browser.post(identityApi.signOut.path)).body.code).toBe('0000');
    expect((await browser.post(identityApi.userInfo.path)).body.code).toBe('0405');
    expect(await identitiesOf(user.id)).toEqual([{ provider: 'wechat', subject: openId }]);
  });
});
