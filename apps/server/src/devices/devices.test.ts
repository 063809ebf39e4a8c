import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply, MenuNode } from '@linewatch/contracts/devices';
import { deviceMessages, menuLabels } from '@linewatch/contracts/devices';
import { primitiveMessages } from '@linewatch/contracts/primitives';
import { messages } from '@linewatch/contracts/envelope';
import { PAGE_SIZE, pagingMessages } from '@linewatch/contracts/rules/paging';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../test/http.ts';
import { factories, type TestGroup, type TestLine } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const LIST = devicesApi.machineList.path;
const MENU = devicesApi.processMenu.path;

let server: TestServer;
let lineA: TestLine, lineB: TestLine, hiddenLine: TestLine;
let groupA1: TestGroup, groupA2: TestGroup, groupB1: TestGroup, hiddenGroup: TestGroup;
let a1: string[], a2: string[], b1: string[], hidden: string[];
let operator: ReturnType<typeof api>;
let admin: ReturnType<typeof api>;

type Query = Record<string, string | number | undefined>;

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  [lineA, lineB, hiddenLine] = [
    await make.createLine(),
    await make.createLine(),
    await make.createLine(),
  ];
  groupA1 = await make.createGroup(lineA);
  groupA2 = await make.createGroup(lineA);
  groupB1 = await make.createGroup(lineB);
  hiddenGroup = await make.createGroup(hiddenLine);
  a1 = await make.createDevices(12, { line: lineA, group: groupA1 });
  a2 = await make.createDevices(5, { line: lineA, group: groupA2 });
  b1 = await make.createDevices(3, { line: lineB, group: groupB1 });
  hidden = await make.createDevices(4, { line: hiddenLine, group: hiddenGroup });
  const operatorUser = await make.createUser({ lines: [lineA, lineB] });
  await make.follow(operatorUser, [a1[0]!, b1[2]!]);
  const adminUser = await make.createUser({ isAdmin: true });
  operator = api(
    server.baseUrl,
    await login(server.baseUrl, operatorUser.psnCode, operatorUser.password),
  );
  admin = api(server.baseUrl, await login(server.baseUrl, adminUser.psnCode, adminUser.password));
});
afterAll(() => server?.close());

const list = async (client: ReturnType<typeof api>, query: Query = {}) => {
  const reply = await client.get<MachineListReply>(LIST, query);
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.code).toBe('0000');
  return reply.body.data;
};

/** Every page of a listing, 15 at a time as the phone pages through it. */
const allPages = async (client: ReturnType<typeof api>, query: Query = {}) => {
  const pages: MachineListReply[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const page = await list(client, { ...query, pageIndex });
    pages.push(page);
    if (page.data.length < PAGE_SIZE.deviceList) return pages;
  }
};

const sns = (reply: MachineListReply) => reply.data.map((d) => d.snCode);

describe('machine visibility', () => {
  it('pages an operator through the machines of their two lines, 15 a page, and nothing else', async () => {
    const pages = await allPages(operator);
    expect(pages.map((p) => p.data.length)).toEqual([15, 5]);
    expect(pages.every((p) => p.total === 20)).toBe(true);
    const seen = pages.flatMap(sns);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual([...a1, ...a2, ...b1].sort());
    for (const sn of hidden) expect(seen).not.toContain(sn);
    // Past the end: an empty page, the same total.
    expect(await list(operator, { pageIndex: 3 })).toEqual({ data: [], total: 20 });
  });

  it('counts only the visible lines in the menu', async () => {
    const reply = await operator.get<MenuNode[]>(MENU);
    expect(reply.body.code).toBe('0000');
    const menu = reply.body.data;
    expect(menu[0]).toMatchObject({ kind: 'all', text: menuLabels.all, count: 20 });
    expect(menu[1]).toMatchObject({ kind: 'follow', text: menuLabels.follow, count: 2 });
    const lines = menu.filter((n) => n.kind === 'line');
    expect(lines.map((l) => [l.text, l.count])).toEqual([
      [lineA.name, 17],
      [lineB.name, 3],
    ]);
    expect(lines[0]!.children!.map((g) => [g.produceGroup, g.count]).sort()).toEqual(
      [
        [groupA1.name, 12],
        [groupA2.name, 5],
      ].sort(),
    );
    expect(JSON.stringify(menu)).not.toContain(hiddenLine.name);

    const followed = (await operator.get<MenuNode[]>(MENU, { isFollow: '1' })).body.data;
    expect(followed.filter((n) => n.kind === 'line').map((l) => [l.text, l.count])).toEqual([
      [lineA.name, 1],
      [lineB.name, 1],
    ]);
  });

  it('refuses an operator who searches the SN of a machine on another line', async () => {
    const reply = await operator.get(LIST, { nameTag: hidden[1] });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ success: false, code: '0403', msg: messages.forbidden });
    expect(reply.text).not.toContain(hidden[1]);
    // Their own machine is found by the same search.
    expect(sns(await list(operator, { nameTag: a2[3] }))).toEqual([a2[3]]);
    // Filtering to the hidden line by name shows nothing rather than its machines.
    expect(await list(operator, { produceLine: hiddenLine.name })).toEqual({ data: [], total: 0 });
  });

  it('shows an admin every line', async () => {
    const hiddenPage = await list(admin, { produceLine: hiddenLine.name });
    expect(hiddenPage.total).toBe(4);
    expect(sns(hiddenPage).sort()).toEqual([...hidden].sort());
    expect(sns(await list(admin, { nameTag: hidden[1] }))).toEqual([hidden[1]]);
    const menu = (await admin.get<MenuNode[]>(MENU)).body.data;
    expect(menu.find((n) => n.text === hiddenLine.name)?.count).toBe(4);
    expect(menu[0]!.count).toBeGreaterThanOrEqual(24);
  });
});

describe('machine list filters', () => {
  it('filters by production line and product group', async () => {
    const byLine = await allPages(operator, { produceLine: lineA.name });
    expect(byLine[0]!.total).toBe(17);
    expect(byLine.flatMap(sns).sort()).toEqual([...a1, ...a2].sort());
    expect(byLine.flatMap((p) => p.data).every((d) => d.produceLine === lineA.name)).toBe(true);

    const byGroup = await list(operator, { produceLine: lineA.name, produceGroup: groupA2.name });
    expect(byGroup.total).toBe(5);
    expect(sns(byGroup).sort()).toEqual([...a2].sort());
    expect(byGroup.data.every((d) => d.produceGroup === groupA2.name)).toBe(true);
  });

  it('searches by part of an SN', async () => {
    const prefix = b1[0]!.slice(0, -4); // the batch's shared prefix, without "-000"
    const found = await list(operator, { nameTag: prefix });
    expect(found.total).toBe(3);
    expect(sns(found).sort()).toEqual([...b1].sort());
    // A search that only matches another line's machines finds nothing (it names no one SN).
    expect(await list(operator, { nameTag: hidden[0]!.slice(0, -4) })).toEqual({
      data: [],
      total: 0,
    });
  });

  it('lists only the subscribed machines with isFollow=1, marked as collected', async () => {
    const followed = await list(operator, { isFollow: '1' });
    expect(followed.total).toBe(2);
    expect(sns(followed).sort()).toEqual([a1[0], b1[2]].sort());
    expect(followed.data.every((d) => d.isCollect)).toBe(true);
    const everything = (await allPages(operator)).flatMap((p) => p.data);
    expect(
      everything
        .filter((d) => d.isCollect)
        .map((d) => d.snCode)
        .sort(),
    ).toEqual([a1[0], b1[2]].sort());
  });

  it('describes a machine with no telemetry as offline and not bound', async () => {
    const [card] = (await list(operator, { nameTag: a1[5] })).data;
    expect(card).toMatchObject({
      snCode: a1[5],
      deviceStatus: 'offLine',
      iot: 0,
      produceNumber: 0,
      produceLine: lineA.name,
      produceGroup: groupA1.name,
    });
  });
});

describe('machine list input', () => {
  const rowCounts = async () => {
    const { rows } = await sql<Record<string, number>>`
      SELECT (SELECT count(*) FROM devices)::int AS devices,
             (SELECT count(*) FROM user_follows)::int AS follows,
             (SELECT count(*) FROM rollup_day)::int AS rollups`.execute(
      server.linewatch.database.db,
    );
    return rows[0];
  };

  it.each(['0', '-1', '1.5', 'abc'])(
    'refuses pageIndex=%s with the Chinese message and writes nothing',
    async (pageIndex) => {
      const before = await rowCounts();
      const reply = await operator.get(LIST, { pageIndex });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        success: false,
        code: '0400',
        msg: pagingMessages.badPage,
        data: { errors: [{ path: 'pageIndex', message: pagingMessages.badPage }] },
      });
      expect(await rowCounts()).toEqual(before);
    },
  );

  it.each([
    ['pageSize', '0', pagingMessages.badPageSize],
    ['pageSize', '101', pagingMessages.badPageSize],
    ['pageSize', 'x', pagingMessages.badPageSize],
    ['isFollow', '2', deviceMessages.badFlag],
    ['nameTag', '长'.repeat(65), deviceMessages.textTooLong],
  ])('refuses %s=%s with its Chinese message', async (field, value, message) => {
    const reply = await operator.get(LIST, { [field]: value });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: '0400',
      msg: message,
      data: { errors: [{ path: field, message }] },
    });
  });

  it('refuses a malformed dataDate with the Chinese message', async () => {
    const reply = await operator.get(LIST, { dataDate: '2026/01/01' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: '0400', msg: deviceMessages.badDate });
  });

  // Each of these answered HTTP 500: the database refused the date or the NUL.
  it.each(['2026-02-30', '2025-02-29', '0000-00-00', '2026-11-31', '2026-13-45'])(
    'refuses the impossible dataDate %s with 0400, not 500',
    async (dataDate) => {
      const reply = await operator.get(LIST, { dataDate });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        code: '0400',
        msg: deviceMessages.badDate,
        data: { errors: [{ path: 'dataDate' }] },
      });
    },
  );

  it('accepts a real leap day', async () => {
    const reply = await operator.get(LIST, { dataDate: '2024-02-29' });
    expect(reply.status).toBe(200);
  });

  it.each(['nameTag', 'produceLine', 'produceGroup'])(
    'refuses a NUL in %s with 0400 and a Chinese message',
    async (field) => {
      const reply = await operator.get(LIST, { [field]: 'LW\u0000x' });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        code: '0400',
        msg: primitiveMessages.controlCharacter,
        data: { errors: [{ path: field }] },
      });
    },
  );
});
