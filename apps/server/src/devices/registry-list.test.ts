import { adminApi } from '@linewatch/contracts/admin-api';
import type { AdminLine } from '@linewatch/contracts/admin';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import type { StatisticsReply } from '@linewatch/contracts/statistics';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestLine } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

/*
 * The device list and the statistics choose their machines from the device registry in memory:
 * every change made through the server shows in the very next answer.
 */

let server: TestServer;
let admin: ReturnType<typeof api>;
let operator: ReturnType<typeof api>;
let west: AdminLine, east: AdminLine;

type Client = ReturnType<typeof api>;

const ok = async <T>(reply: Promise<{ status: number; text: string; body: { data: T } }>) => {
  const r = await reply;
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};

const saveLine = (body: { id?: number; name: string; sort: number }) =>
  ok(admin.post<AdminLine>(adminApi.saveLine.path, body));

const saveMachine = (mode: 'create' | 'update', body: Record<string, unknown>) =>
  ok(
    admin.post(mode === 'create' ? adminApi.createMachine.path : adminApi.updateMachine.path, {
      deviceName: '登记机',
      ...body,
    }),
  );

const list = (client: Client, query: Record<string, string | number> = {}) =>
  ok(client.get<MachineListReply>(devicesApi.machineList.path, { pageSize: 100, ...query }));

/** Wall-clock time in the test server's zone, Asia/Shanghai (UTC+8, no daylight saving). */
const shanghai = (ts: number) =>
  new Date(ts + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

const statistics = (client: Client, productLine?: string) => {
  const now = Date.now();
  return ok(
    client.get<StatisticsReply>(statisticsApi.statistics.path, {
      dataStartDate: shanghai(now - 3_600_000),
      dataEndDate: shanghai(now),
      pageSize: 100,
      ...(productLine ? { filters: JSON.stringify({ productLine }) } : {}),
    }),
  );
};

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const adminUser = await make.createUser({ isAdmin: true });
  admin = api(server.baseUrl, await login(server.baseUrl, adminUser.psnCode, adminUser.password));
  west = await saveLine({ name: '登记西线', sort: 1 });
  east = await saveLine({ name: '登记东线', sort: 2 });
  const asTestLine = (l: AdminLine): TestLine => ({ id: l.id, name: l.name });
  const operatorUser = await make.createUser({ lines: [asTestLine(west)] });
  operator = api(
    server.baseUrl,
    await login(server.baseUrl, operatorUser.psnCode, operatorUser.password),
  );
});
afterAll(() => server?.close());

describe('the list and the statistics after a change', () => {
  it('show a machine added, renamed and moved to a line the operator may not see', async () => {
    expect((await list(operator)).total).toBe(0);

    await saveMachine('create', { snCode: 'REG-1', lineId: west.id });
    expect((await list(operator)).data).toMatchObject([
      { snCode: 'REG-1', deviceName: '登记机', produceLine: west.name },
    ]);
    expect((await statistics(operator)).data.map((r) => r.machineCode)).toEqual(['REG-1']);

    await saveMachine('update', {
      snCode: 'REG-1',
      lineId: west.id,
      deviceName: '改名机',
      nickSnCode: '一号',
      ppmTarget: 42,
    });
    expect((await list(operator)).data).toMatchObject([
      { snCode: 'REG-1', deviceName: '改名机', nickSnCode: '一号', ppmTarget: 42 },
    ]);
    expect((await list(operator, { nameTag: '一号' })).total).toBe(1);
    expect((await statistics(operator)).data).toMatchObject([
      { machineCode: 'REG-1', deviceName: '改名机', ppmTarget: 42 },
    ]);

    await saveMachine('update', { snCode: 'REG-1', lineId: east.id, deviceName: '改名机' });
    expect(await list(operator)).toEqual({ data: [], total: 0 });
    expect((await statistics(operator)).total).toBe(0);
    // Now on a line the operator was not granted: an exact search says so (0403).
    expect((await operator.get(devicesApi.machineList.path, { nameTag: 'REG-1' })).status).toBe(
      403,
    );
    expect((await list(admin, { produceLine: east.name })).data).toMatchObject([
      { snCode: 'REG-1', produceLine: east.name },
    ]);
  });

  it('show a line renamed or sorted anew', async () => {
    await saveMachine('create', { snCode: 'REG-2', lineId: west.id });
    const order = async () => (await list(admin)).data.map((d) => [d.snCode, d.produceLine]);
    expect(await order()).toEqual([
      ['REG-2', west.name],
      ['REG-1', east.name],
    ]);

    east = await saveLine({ id: east.id, name: '登记东线二', sort: 0 });
    expect(await order()).toEqual([
      ['REG-1', '登记东线二'],
      ['REG-2', west.name],
    ]);
    expect((await statistics(admin, '登记东线二')).data).toMatchObject([
      { machineCode: 'REG-1', productLine: '登记东线二' },
    ]);
  });

  it('mark a machine followed, or no longer, in the next answer', async () => {
    const marked = async () => (await list(operator)).data.map((d) => [d.snCode, d.isCollect]);
    expect(await marked()).toEqual([['REG-2', false]]);

    await ok(operator.post(subscriptionsApi.addFollow.path, { snCode: 'REG-2', alarm: true }));
    expect(await marked()).toEqual([['REG-2', true]]);
    expect((await list(operator, { isFollow: '1' })).total).toBe(1);

    await ok(operator.post(subscriptionsApi.cancelFollow.path, { snCode: 'REG-2' }));
    expect(await marked()).toEqual([['REG-2', false]]);
    expect((await list(operator, { isFollow: '1' })).total).toBe(0);
  });
});
