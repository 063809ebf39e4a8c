import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { factories, type TestGateway, type TestLine } from './test/factories.ts';
import { api, login } from './test/http.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  startTestServer,
  uniqueSchema,
  type TestServer,
} from './test/test-server.ts';

// What one instance keeps in memory (a user's follow marks) must
// follow a change made through another as soon as the notice arrives
// (db/notices.ts). Both servers keep their caches for an hour here, so nothing but a notice can
// make them read again. Two servers can share only PostgreSQL: this runs with DATABASE_URL, as
// the CI's second pass does.

const HOUR_MS = 3_600_000;
const soon = { timeout: 10_000 };

describe.skipIf(!externalDatabaseUrl)('caches of two instances on one PostgreSQL', () => {
  const schema = uniqueSchema();
  let a: TestServer;
  let b: TestServer;
  let make: ReturnType<typeof factories>;
  let line: TestLine;
  let gateway: TestGateway;
  let sn: string;

  beforeAll(async () => {
    a = await startTestServer({ DATABASE_SCHEMA: schema }, { cacheMaxAgeMs: HOUR_MS });
    b = await startTestServer(
      { DATABASE_SCHEMA: schema, MQTT_URL: '' },
      { cacheMaxAgeMs: HOUR_MS },
    );
    make = factories(a.linewatch);
    line = await make.createLine();
    gateway = await make.createGateway();
    sn = await make.createDevice({ line, gateway });
    await b.linewatch.registry.reload();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
  });

  const ok = async (reply: Promise<{ body: { code: string } }>) =>
    expect((await reply).body.code).toBe('0000');
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
