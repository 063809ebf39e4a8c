import { adminApi } from '@linewatch/contracts/admin-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  startTestServer,
  uniqueSchema,
  type TestServer,
} from '../test/test-server.ts';
import { announceMachinesChanged } from '../core/device-registry.ts';

// Each instance keeps the machines in memory (the device registry: ingest's binding check, the
// device list, the statistics, socket visibility). A change made through one instance, or by the
// admin CLI, must reach the others. Two servers can share only PostgreSQL: this runs with
// DATABASE_URL, as the CI's second pass does.
describe.skipIf(!externalDatabaseUrl)(
  'machines changed elsewhere, two instances on one PostgreSQL',
  () => {
    const schema = uniqueSchema();
    let a: TestServer;
    let b: TestServer;
    let adminOfA: ReturnType<typeof api>;
    let adminOfB: ReturnType<typeof api>;
    let lineId: number;

    beforeAll(async () => {
      a = await startTestServer({ DATABASE_SCHEMA: schema });
      b = await startTestServer({ DATABASE_SCHEMA: schema });
      const make = factories(a.linewatch);
      const admin = await make.createUser({ isAdmin: true });
      adminOfA = api(a.baseUrl, await login(a.baseUrl, admin.psnCode, admin.password));
      adminOfB = api(b.baseUrl, await login(b.baseUrl, admin.psnCode, admin.password));
      lineId = (await make.createLine('跨实例线')).id;
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
    });

    const listedByB = async () =>
      (
        await adminOfB.get<MachineListReply>(devicesApi.machineList.path, {
          pageIndex: 1,
          pageSize: 15,
        })
      ).body.data.data.map((m) => m.deviceName);

    it('a machine added through one instance is known to the other', async () => {
      const created = await adminOfA.post(adminApi.createMachine.path, {
        snCode: 'TWO-INST-1',
        deviceName: '甲实例新增',
        lineId,
      });
      expect(created.body.code).toBe('0000');
      await vi.waitFor(() => expect(b.linewatch.registry.get('TWO-INST-1')).toBeDefined());
      expect(await listedByB()).toContain('甲实例新增');
    });

    it('a change announced by another process (the admin CLI) is reloaded', async () => {
      // What `npm run admin machine:update` does: write, then announce.
      await a.linewatch.database.db
        .updateTable('devices')
        .set({ device_name: '命令行改名' })
        .where('sn_code', '=', 'TWO-INST-1')
        .execute();
      await announceMachinesChanged(a.linewatch.database.db);
      await vi.waitFor(() =>
        expect(b.linewatch.registry.get('TWO-INST-1')?.deviceName).toBe('命令行改名'),
      );
      expect(await listedByB()).toContain('命令行改名');
    });

    it('after losing its listening connection, an instance reloads and hears again', async () => {
      // Whatever was announced while the connection was down is lost: the reconnect reloads.
      await b.linewatch.database.db
        .updateTable('devices')
        .set({ device_name: '断线期间改名' })
        .where('sn_code', '=', 'TWO-INST-1')
        .execute();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where query like 'LISTEN "${sql.raw(schema)}.%' and pid <> pg_backend_pid()`.execute(
        a.linewatch.database.db,
      );
      await vi.waitFor(
        () => expect(b.linewatch.registry.get('TWO-INST-1')?.deviceName).toBe('断线期间改名'),
        { timeout: 10_000 },
      );
      const moved = await adminOfA.post(adminApi.updateMachine.path, {
        snCode: 'TWO-INST-1',
        deviceName: '重连之后改名',
        lineId,
      });
      expect(moved.body.code).toBe('0000');
      await vi.waitFor(() =>
        expect(b.linewatch.registry.get('TWO-INST-1')?.deviceName).toBe('重连之后改名'),
      );
    });
  },
);
