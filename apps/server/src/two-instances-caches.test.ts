import { adminApi } from '@linewatch/contracts/admin-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { SOCKET_CLOSE } from '@linewatch/contracts/socket';
import type { StatisticsReply } from '@linewatch/contracts/statistics';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { sockets } from '@linewatch/contracts/telemetry-api';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli-commands.ts';
import { loadConfig } from './foundation/config/config.ts';
import { openDatabase } from './foundation/db/database.ts';
import { announceMachinesChanged } from './core/device-registry.ts';
import { createIdentityRepository } from './identity/repository.ts';
import { instantOf, wallClockOf } from './foundation/shared/time.ts';
import { factories, type TestGateway, type TestLine } from './test/factories.ts';
import { connectGateway, reading } from './test/gateway.ts';
import { api, login } from './test/http.ts';
import { probes } from './test/probes.ts';
import { openSocket } from './test/socket.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  startTestServer,
  TEST_SECRET,
  uniqueSchema,
  type TestServer,
} from './test/test-server.ts';

// What one instance keeps in memory (a user's follow marks, sessions, past days' sums) must
// follow a change made through another, or by the admin CLI, as soon as the notice arrives
// (db/notices.ts). Both servers keep their caches for an hour here, so nothing but a notice can
// make them read again. Two servers can share only PostgreSQL: this runs with DATABASE_URL, as
// the CI's second pass does.

const HOUR_MS = 3_600_000;
const TZ = 'Asia/Shanghai';
const soon = { timeout: 10_000 };

describe.skipIf(!externalDatabaseUrl)('caches of two instances on one PostgreSQL', () => {
  const schema = uniqueSchema();
  let a: TestServer;
  let b: TestServer;
  let make: ReturnType<typeof factories>;
  let line: TestLine;
  let gateway: TestGateway;
  let sn: string;
  let adminOfA: ReturnType<typeof api>;
  let adminOfB: ReturnType<typeof api>;

  beforeAll(async () => {
    a = await startTestServer({ DATABASE_SCHEMA: schema }, { cacheMaxAgeMs: HOUR_MS });
    // A broker of its own: only A hears the gateway, so only A's flushes write its readings.
    b = await startTestServer(
      { DATABASE_SCHEMA: schema, MQTT_URL: '' },
      { cacheMaxAgeMs: HOUR_MS },
    );
    make = factories(a.linewatch);
    line = await make.createLine();
    gateway = await make.createGateway();
    sn = await make.createDevice({ line, gateway });
    await b.linewatch.registry.reload();
    const admin = await make.createUser({ isAdmin: true });
    adminOfA = api(a.baseUrl, await login(a.baseUrl, admin.psnCode, admin.password));
    adminOfB = api(b.baseUrl, await login(b.baseUrl, admin.psnCode, admin.password));
  }, 60_000);
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
  });

  const ok = async (reply: Promise<{ body: { code: string } }>) =>
    expect((await reply).body.code).toBe('0000');
  /** The answer `/api/session` gives a keyId on an instance: 0000, or 0405 once it ended. */
  const sessionCode = async (server: TestServer, keyId: string) =>
    (await api(server.baseUrl, keyId).get(identityApi.session.path)).body.code;
  const operator = async () => {
    const user = await make.createUser({ lines: [line] });
    return {
      user,
      signIn: (server: TestServer) => login(server.baseUrl, user.psnCode, user.password),
    };
  };

  it('a follow or unfollow through one shows in the other’s list marks at once', async () => {
    const { signIn } = await operator();
    const [onA, onB] = [api(a.baseUrl, await signIn(a)), api(b.baseUrl, await signIn(b))];
    const markOnB = async () =>
      (
        await onB.get<MachineListReply>(devicesApi.machineList.path, { pageIndex: 1, pageSize: 15 })
      ).body.data.data.find((m) => m.snCode === sn)?.isCollect;
    expect(await markOnB()).toBe(false);

    await ok(onA.post(subscriptionsApi.addFollow.path, { snCode: sn }));
    await vi.waitFor(async () => expect(await markOnB()).toBe(true), soon);
    await ok(onA.post(subscriptionsApi.cancelFollow.path, { snCode: sn }));
    await vi.waitFor(async () => expect(await markOnB()).toBe(false), soon);
  });

  it('a sign-out through one ends the session on the other at once, and closes its sockets', async () => {
    const { signIn } = await operator();
    const keyId = await signIn(a);
    expect(await sessionCode(b, keyId)).toBe('0000');
    // B's own check of open sockets' sessions (every 2 s) finds every session alive here: only
    // the notice can close the socket.
    vi.spyOn(b.linewatch.app.identity, 'liveSessions').mockImplementation(
      async (hashes) => new Set(hashes),
    );
    const socket = openSocket(b.wsUrl, sockets.realtime.path(sn), {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect(await socket.opened).toBe(true);
    await socket.waitForMessage(() => true);
    let closedWith: number | undefined;
    void socket.closed.then(({ code }) => (closedWith = code));

    await ok(api(a.baseUrl, keyId).post(identityApi.signOut.path));
    await vi.waitFor(() => expect(closedWith).toBe(SOCKET_CLOSE.notSignedIn), soon);
    expect(await sessionCode(b, keyId)).toBe('0405');
  });

  it('a line taken from a user through one closes their socket on that line’s machine on the other', async () => {
    const { user, signIn } = await operator();
    const keyId = await signIn(b);
    const socket = openSocket(b.wsUrl, sockets.realtime.path(sn), {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    await socket.waitForMessage(() => true);
    let closedWith: number | undefined;
    void socket.closed.then(({ code }) => (closedWith = code));

    await ok(adminOfA.post(adminApi.updateUser.path, { id: user.id, lineIds: [] }));
    await vi.waitFor(() => expect(closedWith).toBe(SOCKET_CLOSE.forbidden), soon);
  });

  it('a user edited, disabled or given a new password through one is read anew by the other', async () => {
    const { user, signIn } = await operator();
    const first = api(b.baseUrl, await signIn(b));
    expect((await first.get(adminApi.users.path)).body.code).toBe('0403');
    await ok(adminOfA.post(adminApi.updateUser.path, { id: user.id, isAdmin: true }));
    await vi.waitFor(
      async () => expect((await first.get(adminApi.users.path)).body.code).toBe('0000'),
      soon,
    );

    await ok(adminOfA.post(adminApi.disableUser.path, { id: user.id, disabled: true }));
    await vi.waitFor(
      async () => expect((await first.get(identityApi.session.path)).body.code).toBe('0405'),
      soon,
    );

    await ok(adminOfA.post(adminApi.disableUser.path, { id: user.id, disabled: false }));
    const second = await signIn(b);
    expect(await sessionCode(b, second)).toBe('0000');
    await ok(
      adminOfA.post(adminApi.resetPassword.path, { id: user.id, password: 'New-password-2026' }),
    );
    await vi.waitFor(async () => expect(await sessionCode(b, second)).toBe('0405'), soon);
  });

  it('a new password given with the admin CLI ends the user’s sessions on a running instance at once', async () => {
    const { user, signIn } = await operator();
    const keyId = await signIn(b);
    expect(await sessionCode(b, keyId)).toBe('0000');
    // Another process on the same database, wired as cli.ts wires it.
    const cli = await openDatabase(
      loadConfig({
        DATABASE_URL: externalDatabaseUrl,
        DATABASE_SCHEMA: schema,
        SECRET: TEST_SECRET,
      }),
    );
    try {
      await runCli(['reset-password', '--psn', user.psnCode], cli.db, {
        print: () => undefined,
        password: async () => 'Cli-password-2026',
        tell: async () => undefined,
        machinesChanged: () => announceMachinesChanged(cli.db),
        endUserSessions: (userId) => createIdentityRepository(cli.db).deleteUserSessions(userId),
      });
    } finally {
      await cli.close();
    }
    await vi.waitFor(async () => expect(await sessionCode(b, keyId)).toBe('0405'), soon);
  });

  it('a late replay written by one shows in the other’s statistics at once', async () => {
    const day = (daysAgo: number) =>
      wallClockOf(Date.now() - daysAgo * 86_400_000, TZ).slice(0, 10);
    const query = {
      dataStartDate: `${day(3)} 00:00:00`,
      dataEndDate: `${day(1)} 00:00:00`,
      filters: JSON.stringify({ productLine: line.name }),
    };
    const producedOnB = async () =>
      (
        await adminOfB.get<StatisticsReply>(statisticsApi.statistics.path, query)
      ).body.data.data.find((r) => r.machineCode === sn)?.produceNumber;
    expect(await producedOnB()).toBe(0);

    // The gateway's buffer sent long after: readings of two days ago, through A only.
    const at = instantOf(`${day(2)} 12:00:00`, TZ);
    const late = await connectGateway(a.mqttUrl, gateway);
    try {
      await late.telemetry(1, [reading(sn, { produced: 100 }, { ts: at })]);
      await late.telemetry(2, [reading(sn, { produced: 130 }, { ts: at + 60_000 })]);
      await late.waitForAck(2);
    } finally {
      await late.close();
    }
    const stored = await probes(a.linewatch.database.db).producedTotal(sn);
    expect(stored).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await producedOnB()).toBe(stored), soon);
  });

  it('after losing its listening connection, an instance drops what it keeps', async () => {
    const { user, signIn } = await operator();
    const onB = api(b.baseUrl, await signIn(b));
    const markOnB = async () =>
      (
        await onB.get<MachineListReply>(devicesApi.machineList.path, { pageIndex: 1, pageSize: 15 })
      ).body.data.data.find((m) => m.snCode === sn)?.isCollect;
    expect(await markOnB()).toBe(false);
    // A follow no instance announced (written in the database directly): only the reconnect,
    // which assumes that anything may have changed while it was away, can bring it in.
    await b.linewatch.database.db
      .insertInto('user_follows')
      .values({ user_id: user.id, sn_code: sn })
      .execute();
    expect(await markOnB()).toBe(false);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where query like 'LISTEN "${sql.raw(schema)}.%' and pid <> pg_backend_pid()`.execute(
      b.linewatch.database.db,
    );
    await vi.waitFor(async () => expect(await markOnB()).toBe(true), soon);
  });
});
