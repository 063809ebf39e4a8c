import { devicesApi } from '@linewatch/contracts/devices-api';
import { GRANTED_ROLES, identityApi } from '@linewatch/contracts/identity-api';
import { messages } from '@linewatch/contracts/envelope';
import { identityMessages } from '@linewatch/contracts/identity';
import { KEY_ID_COOKIE } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, login, loginRequest } from '../test/http.ts';
import { factories, type TestUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const USER_INFO = identityApi.userInfo.path;
const LIST = devicesApi.machineList.path;
const LOGOUT = identityApi.wechatSignOut.path;
const SESSION = identityApi.session.path;

let server: TestServer;
let make: ReturnType<typeof factories>;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  make = factories(server.linewatch);
  const line = await make.createLine();
  user = await make.createUser({ name: '张三', nickName: '三哥', lines: [line] });
});
afterAll(() => server?.close());

const expectNotSignedIn = (reply: { status: number; body: { code: string; success: boolean } }) => {
  expect(reply.status).toBe(401);
  expect(reply.body).toMatchObject({ success: false, code: '0405', msg: messages.notSignedIn });
};

describe('sign-in', () => {
  it('returns a 256-bit keyId, sets it as an HttpOnly cookie, and the keyId reads the user', async () => {
    const reply = await loginRequest(server.baseUrl, {
      psnCode: user.psnCode,
      passWord: encryptPassword(user.password),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      success: true,
      code: '0000',
      msg: identityMessages.loginOk,
    });
    const keyId = reply.body.data.keyId;
    expect(keyId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(keyId, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(Buffer.from(keyId, 'base64url').length).toBe(32);

    const cookie = reply.headers.getSetCookie().find((c) => c.startsWith(`${KEY_ID_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toContain(`${KEY_ID_COOKIE}=${keyId}`);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);

    const info = await api(server.baseUrl, keyId).post(USER_INFO);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ code: '0000', data: { name: '张三', nickName: '三哥' } });
  });

  it('stores only a hash of the keyId', async () => {
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const sessions = await server.linewatch.database.db
      .selectFrom('sessions')
      .select('key_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.map((s) => s.key_hash)).not.toContain(keyId);
  });

  it('gives a wrong password and an unknown user the same refusal', async () => {
    const wrong = await loginRequest(server.baseUrl, {
      psnCode: user.psnCode,
      passWord: encryptPassword('not-the-password'),
    });
    const unknown = await loginRequest(server.baseUrl, {
      psnCode: 'nobody-such-user',
      passWord: encryptPassword(user.password),
    });
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({
        success: false,
        code: '0410',
        msg: identityMessages.wrongCredentials,
        data: null,
      });
      expect(reply.headers.getSetCookie()).toEqual([]);
    }
  });

  it('refuses empty fields with the first Chinese validation message', async () => {
    const reply = await loginRequest(server.baseUrl, { psnCode: '  ', passWord: '' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      success: false,
      code: '0400',
      msg: identityMessages.usernameRequired,
    });
    const errors = (reply.body.data as unknown as { errors: { message: string }[] }).errors;
    expect(errors.map((e) => e.message)).toEqual([
      identityMessages.usernameRequired,
      identityMessages.passwordRequired,
    ]);
  });

  it('refuses a password sent in plain text instead of the agreed cipher text', async () => {
    const reply = await loginRequest(server.baseUrl, {
      psnCode: user.psnCode,
      passWord: user.password,
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: '0410', msg: identityMessages.wrongCredentials });
  });

  it('blocks an account after five wrong passwords, even for the right one', async () => {
    const target = await make.createUser();
    for (let i = 0; i < 5; i++) {
      const reply = await loginRequest(server.baseUrl, {
        psnCode: target.psnCode,
        passWord: encryptPassword(`wrong-${i}`),
      });
      expect(reply.body.msg).toBe(identityMessages.wrongCredentials);
    }
    const sixth = await loginRequest(server.baseUrl, {
      psnCode: target.psnCode,
      passWord: encryptPassword(target.password),
    });
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({ code: '0410', msg: messages.tooManyAttempts });
    expect(sixth.headers.getSetCookie()).toEqual([]);
    // Another account from the same address is not affected.
    await expect(login(server.baseUrl, user.psnCode, user.password)).resolves.toBeTruthy();
  });
});

describe('sessions', () => {
  it('refuses a request without a keyId with HTTP 401 and code 0405', async () => {
    expectNotSignedIn(await api(server.baseUrl).post(USER_INFO));
    expectNotSignedIn(await api(server.baseUrl).get(LIST));
    expectNotSignedIn(await api(server.baseUrl, 'made-up-key').get(LIST));
  });

  it('accepts the cookie alone for a read but not for a change of state', async () => {
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const byCookie = api(server.baseUrl, keyId, 'cookie');
    const read = await byCookie.get(LIST);
    expect(read.status).toBe(200);
    expect(read.body.code).toBe('0000');
    // POST, and the spec's GET that logs out, need the header: a forged cross-site form has none.
    expectNotSignedIn(await byCookie.post(USER_INFO));
    expectNotSignedIn(await byCookie.get(LOGOUT));
    // Still signed in: the refused logout changed nothing.
    expect((await api(server.baseUrl, keyId).post(USER_INFO)).body.code).toBe('0000');
  });

  it('revokes the keyId on logout', async () => {
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const other = await login(server.baseUrl, user.psnCode, user.password);
    const reply = await api(server.baseUrl, keyId).get(LOGOUT);
    expect(reply.status).toBe(200);
    expect(reply.body.code).toBe('0000');
    expect(reply.headers.getSetCookie().join()).toMatch(new RegExp(`${KEY_ID_COOKIE}=;`));
    expectNotSignedIn(await api(server.baseUrl, keyId).post(USER_INFO));
    expectNotSignedIn(await api(server.baseUrl, keyId, 'cookie').get(LIST));
    // Only that session ends.
    expect((await api(server.baseUrl, other).post(USER_INFO)).body.code).toBe('0000');
  });

  it('tells a new tab, by the cookie alone, which session it has (and nothing without one)', async () => {
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const restored = await api(server.baseUrl, keyId, 'cookie').get(SESSION);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      code: '0000',
      // the profile too: the tab needs no second round for its roles
      data: {
        keyId,
        name: '张三',
        nickName: '三哥',
        psnCode: user.psnCode,
        signedInWith: 'password',
        roles: [...GRANTED_ROLES],
      },
    });
    expect(restored.headers.get('cache-control')).toBe('no-store');
    expectNotSignedIn(await api(server.baseUrl).get(SESSION));
    expectNotSignedIn(await api(server.baseUrl, 'made-up-key', 'cookie').get(SESSION));
    await api(server.baseUrl, keyId).post(LOGOUT);
    expectNotSignedIn(await api(server.baseUrl, keyId, 'cookie').get(SESSION));
  });

  it('refuses an expired session', async () => {
    const expiring = await make.createUser();
    const keyId = await login(server.baseUrl, expiring.psnCode, expiring.password);
    expect((await api(server.baseUrl, keyId).post(USER_INFO)).body.code).toBe('0000');
    await server.linewatch.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', expiring.id)
      .execute();
    // Read from the database at most once a second (identity/session-cache.ts).
    await vi.waitFor(
      async () => expectNotSignedIn(await api(server.baseUrl, keyId).post(USER_INFO)),
      { timeout: 5_000 },
    );
  });
});

describe('errors', () => {
  it('answers an unknown route with the 404 envelope and no stack trace', async () => {
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    for (const reply of [
      await api(server.baseUrl).get('/api/no/such/route'),
      await api(server.baseUrl, keyId).post('/api/no/such/route'),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ success: false, code: '0404', data: null });
      expect(reply.body.msg).toContain(messages.notFound);
      expect(reply.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
    }
  });

  it('answers malformed JSON with the 0400 envelope and no stack trace', async () => {
    const response = await fetch(`${server.baseUrl}/api/wechat/bindUser`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"psnCode": ',
    });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ success: false, code: '0400' });
    expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  });

  it.each([
    ['a raw space in the URL', 'GET /api/get UserInfo HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'headers past the limit',
      `GET /api/getUserInfo HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
  ])('answers %s, refused by the HTTP parser, with the envelope', async (_, raw, status) => {
    const { port } = new URL(server.baseUrl);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('utf8')));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(JSON.parse(body)).toMatchObject({ success: false, code: '0400' });
    expect((JSON.parse(body) as { msg: string }).msg).toMatch(/^请求/);
  });
});
