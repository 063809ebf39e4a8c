import { machineListQuery, menuLabels } from '@linewatch/contracts/devices';
import type { DeviceStatus } from '@linewatch/contracts/rules/machine-states';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../foundation/http/envelope.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { factories, type TestLine } from '../test/factories.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { DeviceRegistry } from '../core/device-registry.ts';
import { createDevicesRepository } from './repository.ts';
import { createDevicesService, type DevicesService } from './service.ts';
import { emptyFigures } from '../foundation/shared/metrics.ts';

// The devices service on a real database of its own (a clone of the migrated template): the SQL
// of visibility, paging, search and the menu, without HTTP, the broker or the rest of the server.

let testDb: TestDb;
let devices: DevicesService;
let lineA: TestLine;
let lineB: TestLine;
let onA: string[];
let onB: string;
let unbound: string;
let operator: SessionUser;
let admin: SessionUser;
/** The live status of each machine (the telemetry module's live state in the server). */
const statuses = new Map<string, DeviceStatus>();

const sessionUser = (id: number, isAdmin = false): SessionUser => ({
  userId: id,
  name: `用户${id}`,
  nickName: '',
  isAdmin,
  keyHash: `hash-${id}`,
});

const listQuery = (query: Record<string, string> = {}) =>
  machineListQuery.parse({ pageIndex: 1, pageSize: 100, ...query });

beforeAll(async () => {
  testDb = await openTestDb();
  const { db } = testDb;
  const f = factories(db);
  lineA = await f.createLine();
  lineB = await f.createLine();
  const group = await f.createGroup(lineA);
  const online = await f.createGateway();
  const silent = await f.createGateway();
  onA = await f.createDevices(3, { line: lineA, group, gateway: online });
  onB = await f.createDevice({ line: lineB, gateway: silent });
  unbound = await f.createDevice({ line: lineA });
  const operatorRow = await f.createUser({ lines: [lineA] });
  const adminRow = await f.createUser({ isAdmin: true });
  await f.follow(operatorRow, [onA[0]!]);
  operator = sessionUser(operatorRow.id);
  admin = sessionUser(adminRow.id, true);

  const registry = new DeviceRegistry(db);
  await registry.reload();
  devices = createDevicesService({
    repo: createDevicesRepository(db),
    live: { statusOf: (sn) => statuses.get(sn) ?? 'offLine', todayOf: () => emptyFigures() },
    isGatewayOnline: (gatewayId) => gatewayId === online.id,
    registry,
    timeZone: 'Asia/Shanghai',
  });
});
afterAll(async () => {
  await testDb?.close();
});

describe('devices service on a real database', () => {
  it('lists only the machines of the lines granted to the user; an admin sees every line', async () => {
    const mine = await devices.list(operator, listQuery());
    expect(mine.total).toBe(4);
    expect(mine.data.map((m) => m.snCode).sort()).toEqual([...onA, unbound].sort());
    expect(mine.data.every((m) => m.produceLine === lineA.name)).toBe(true);

    const all = await devices.list(admin, listQuery());
    expect(all.total).toBe(5);
    expect(all.data.map((m) => m.snCode)).toContain(onB);
  });

  it('says whether each machine’s gateway is heard: 1 online, 2 not heard, 0 no gateway', async () => {
    const iot = new Map(
      (await devices.list(admin, listQuery())).data.map((m) => [m.snCode, m.iot]),
    );
    expect(iot.get(onA[0]!)).toBe(1);
    expect(iot.get(onB)).toBe(2);
    expect(iot.get(unbound)).toBe(0);
  });

  it('refuses an exact search for a machine the user may not see, rather than finding nothing', async () => {
    const refusal = await devices
      .list(operator, listQuery({ nameTag: onB }))
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).code).toBe(ReplyCode.forbidden);
    // An SN nobody has is simply not found.
    expect(await devices.list(operator, listQuery({ nameTag: 'SN-NOBODY-HAS' }))).toEqual({
      data: [],
      total: 0,
    });
  });

  it('pages the list and narrows it to followed machines', async () => {
    const first = await devices.list(operator, listQuery({ pageSize: '2' }));
    const second = await devices.list(operator, listQuery({ pageSize: '2', pageIndex: '2' }));
    expect(first.total).toBe(4);
    expect(first.data).toHaveLength(2);
    expect(second.data).toHaveLength(2);
    const seen = new Set([...first.data, ...second.data].map((m) => m.snCode));
    expect(seen.size).toBe(4);

    const followed = await devices.list(operator, listQuery({ isFollow: '1' }));
    expect(followed.data.map((m) => m.snCode)).toEqual([onA[0]]);
  });

  it('counts the visible machines per live status (all offline: none has spoken)', async () => {
    expect(await devices.statusSummary(operator, {})).toEqual({
      running: 0,
      standBy: 0,
      error: 0,
      offLine: 4,
    });
    expect(await devices.statusSummary(admin, {})).toMatchObject({ offLine: 5 });
    expect(await devices.statusSummary(operator, { isFollow: '1' })).toMatchObject({ offLine: 1 });
  });

  it('narrows the list to one live status, and puts machines in fault first', async () => {
    statuses.set(onA[2]!, 'error');
    statuses.set(onA[1]!, 'running');
    try {
      const faults = await devices.list(operator, listQuery({ deviceStatus: 'error' }));
      expect(faults.data.map((m) => [m.snCode, m.deviceStatus])).toEqual([[onA[2], 'error']]);
      const all = await devices.list(operator, listQuery());
      expect(all.data[0]?.snCode).toBe(onA[2]);
      expect(await devices.statusSummary(operator, {})).toEqual({
        running: 1,
        standBy: 0,
        error: 1,
        offLine: 2,
      });
    } finally {
      statuses.clear();
    }
  });

  it('builds the menu from the visible lines and their product groups', async () => {
    const menu = await devices.menu(operator, false);
    expect(menu[0]).toEqual({ text: menuLabels.all, count: 4, kind: 'all' });
    expect(menu[1]).toEqual({ text: menuLabels.follow, count: 1, kind: 'follow' });
    expect(menu.slice(2).map((n) => n.text)).toEqual([lineA.name]);
    expect(menu[2]).toMatchObject({ count: 4, kind: 'line' });
    expect(menu[2]?.children).toEqual([expect.objectContaining({ kind: 'group', count: 3 })]);
  });

  it('decides machine visibility in one place: unknown, forbidden, or the machine', async () => {
    expect(await devices.checkMachine(operator, 'SN-NOBODY-HAS')).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(await devices.checkMachine(operator, onB)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await devices.checkMachine(operator, onA[1]!)).toMatchObject({
      ok: true,
      device: { sn: onA[1], lineId: lineA.id },
    });
    expect(await devices.checkMachine(admin, onB)).toMatchObject({ ok: true });
  });
});
