import { sockets as socketPaths } from '@linewatch/contracts/telemetry-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import {
  SOCKET_CLOSE,
  SOCKET_KEY_PROTOCOL_PREFIX,
  SOCKET_PROTOCOL,
  type RealtimePayload,
} from '@linewatch/contracts/socket';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../test/http.ts';
import { openSocket, type SocketClient } from '../test/socket.ts';
import { waitFor } from '../test/wait.ts';
import { factories, type TestLine, type TestUser } from '../test/factories.ts';
import { spawnServer, SPAWNED_SERVER_TEST_TIMEOUT_MS } from '../test/server-process.ts';
import {
  externalDatabaseUrl,
  startTestServer,
  TEST_SECRET,
  type TestServer,
} from '../test/test-server.ts';

const LOGOUT = identityApi.wechatSignOut.path;

let server: TestServer;
let make: ReturnType<typeof factories>;
let line: TestLine;
let user: TestUser;
const sockets: SocketClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  make = factories(server.linewatch);
  line = await make.createLine();
  user = await make.createUser({ lines: [line] });
});
afterEach(() => {
  for (let s = sockets.pop(); s; s = sockets.pop()) s.close();
});
afterAll(() => server?.close());

const open = (sn: string, options: Parameters<typeof openSocket>[2]) => {
  const socket = openSocket(server.wsUrl, socketPaths.realtime.path(sn), options);
  sockets.push(socket);
  return socket;
};

/** An open socket of `keyId`'s session that has had its first push. */
const streaming = async (sn: string, keyId: string) => {
  const socket = open(sn, { headers: { cookie: `${KEY_ID_COOKIE}=${keyId}` } });
  await socket.waitForMessage<RealtimePayload>((m) => m.SN === sn);
  return socket;
};

describe('socket authentication', () => {
  it('no longer accepts a keyId in the URL', async () => {
    const sn = await make.createDevice({ line });
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const socket = openSocket(server.wsUrl, `${socketPaths.realtime.path(sn)}?keyId=${keyId}`);
    sockets.push(socket);
    expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.notSignedIn });
  });

  it('accepts the cookie of a same-origin handshake, and the keyId as a subprotocol', async () => {
    const sn = await make.createDevice({ line });
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    await streaming(sn, keyId);
    const byProtocol = open(sn, {
      protocols: [SOCKET_PROTOCOL, `${SOCKET_KEY_PROTOCOL_PREFIX}${keyId}`],
    });
    await byProtocol.waitForMessage<RealtimePayload>((m) => m.SN === sn);
    // The server answers the plain protocol: the token is not echoed back.
    expect(byProtocol.protocol()).toBe(SOCKET_PROTOCOL);
  });
});

describe("a session's sockets end with it", () => {
  it('closes every socket of a session with 4405 on sign-out, and leaves other sessions open', async () => {
    const sn = await make.createDevice({ line });
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const other = await login(server.baseUrl, user.psnCode, user.password);
    const first = await streaming(sn, keyId);
    const second = await streaming(sn, keyId);
    const otherSocket = await streaming(sn, other);

    const reply = await api(server.baseUrl, keyId).post(LOGOUT);
    expect(reply.body.code).toBe('0000');
    expect(await first.closed).toMatchObject({ code: SOCKET_CLOSE.notSignedIn });
    expect(await second.closed).toMatchObject({ code: SOCKET_CLOSE.notSignedIn });
    // Still open: a keep-alive is answered.
    otherSocket.send({ SN: sn, MsgType: 'machineFunction', machineFunctionName: 'machineList' });
    await waitFor(() => otherSocket.messages.length >= 2, { what: 'a push to the other session' });
  });

  it('closes with 4405 when the session expires', async () => {
    const sn = await make.createDevice({ line });
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const socket = await streaming(sn, keyId);
    await server.linewatch.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.notSignedIn });
  });

  it('closes with 4405 when the user is removed', async () => {
    const sn = await make.createDevice({ line });
    const removed = await make.createUser({ lines: [line] });
    const keyId = await login(server.baseUrl, removed.psnCode, removed.password);
    const socket = await streaming(sn, keyId);
    await server.linewatch.database.db.deleteFrom('users').where('id', '=', removed.id).execute();
    expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.notSignedIn });
  });
});

// Embedded database and broker only: CI's PostgreSQL + Mosquitto pass would run it unchanged.
describe.skipIf(externalDatabaseUrl)(
  'the request log',
  { timeout: SPAWNED_SERVER_TEST_TIMEOUT_MS },
  () => {
    it('never holds a keyId sent in a query, a header, a cookie or a socket handshake', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'lw-log-test-'));
      const proc = spawnServer({
        HOST: '127.0.0.1',
        PORT: '0',
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        DEMO: '0',
        SECRET: TEST_SECRET,
        LOG_LEVEL: 'info',
        WEB_DIST: join(dataDir, 'no-web-dist'),
      });
      try {
        const port = await proc.listening;
        const token = 'SeCrEtToKeN0123456789abcdefghijklmnopqrstu';
        const base = `http://127.0.0.1:${port}`;
        await fetch(`${base}/api/getUserInfo?keyId=${token}&x=1`, {
          method: 'POST',
          headers: { [KEY_ID_HEADER]: token, cookie: `${KEY_ID_COOKIE}=${token}` },
        });
        const socket = openSocket(
          `ws://127.0.0.1:${port}`,
          `${socketPaths.realtime.path('LW-X')}?keyId=${token}`,
          {
            protocols: [SOCKET_PROTOCOL, `${SOCKET_KEY_PROTOCOL_PREFIX}${token}`],
          },
        );
        await socket.closed;
        await waitFor(() => proc.output().match(/\/ws\/realtime\/LW-X[^"]*"/g)?.length, {
          what: 'the socket request in the log',
        });
        await waitFor(() => proc.output().includes(identityApi.userInfo.path), {
          what: 'the API request in the log',
        });
        expect(proc.output()).toContain('keyId=[Redacted]');
        expect(proc.output()).not.toContain(token);
      } finally {
        await proc.kill('SIGTERM');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  },
);
