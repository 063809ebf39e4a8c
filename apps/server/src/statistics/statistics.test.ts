import { ReplyCode } from '@linewatch/contracts/envelope';
import {
  type MapPoints,
  type MapStatus,
  type Option,
  type StatisticsReply,
  type StatisticsRow,
} from '@linewatch/contracts/statistics';
import { statisticsMessages } from '@linewatch/contracts/statistics-rules';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { adminApi } from '@linewatch/contracts/admin-api';
import type { AdminMachine } from '@linewatch/contracts/admin';
import type { Page } from '@linewatch/contracts/rules/paging';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { StatusSummary } from '@linewatch/contracts/devices';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestGroup, type TestLine } from '../test/factories.ts';
import { connectGateway, reading, type GatewayClient } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { probes } from '../test/probes.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { instantOf, wallClockOf } from '../foundation/shared/time.ts';

/*
 * The map and the statistics through the real server. The statistics' figures are checked
 * against sums the test makes itself from the minute rows it writes (the day rows are those
 * minutes added up, as the ingest flush keeps them), by the rules of docs/design.md section 5.
 */

const TZ = 'Asia/Shanghai';
const DAY_MS = 86_400_000;

let server: TestServer;
let line: TestLine, hiddenLine: TestLine;
let group: TestGroup, hiddenGroup: TestGroup;
let sns: string[];
let hidden: string;
let gateway: GatewayClient;
let operator: ReturnType<typeof api>;
let admin: ReturnType<typeof api>;

interface MinuteRow {
  sn: string;
  at: number;
  produced: number;
  ok: number;
  ng: number;
  firstPassOk: number;
  gapProduced: number;
  runningMs: number;
  idleMs: number;
  faultMs: number;
  idleUpstreamMs: number;
  idleDownstreamMs: number;
}
const minutes: MinuteRow[] = [];
/** A minute average PPM covers: running time or observed parts (docs/design.md section 5). */
const covers = (r: MinuteRow) => r.runningMs > 0 || r.produced - r.gapProduced > 0;

/** Three past factory days, ten to eight days ago. */
const day = (n: number) => wallClockOf(Date.now() - (10 - n) * DAY_MS, TZ).slice(0, 10);
const MINUTES_OF_DAY = ['00:30', '07:59', '08:00', '12:00', '23:59'];

/** A machine's minutes on the three days: each different, one with parts across a silence. */
const writeRollups = async (sn: string, seed: number) => {
  const db = server.linewatch.database.db;
  const rows: MinuteRow[] = [];
  for (let d = 0; d < 3; d++) {
    MINUTES_OF_DAY.forEach((hm, i) => {
      const k = seed * 7 + d * 5 + i;
      const produced = 20 + (k % 9) * 3;
      const ng = k % 4;
      const running = 20_000 + (k % 5) * 8_000;
      const fault = k % 3 === 0 ? 5_000 : 0;
      const upstream = (k % 2) * 3_000;
      const downstream = ((k + 1) % 2) * 2_000;
      rows.push({
        sn,
        at: instantOf(`${day(d)} ${hm}:00`, TZ),
        produced,
        ok: produced - ng,
        ng,
        firstPassOk: produced - ng - (k % 2),
        gapProduced: i === 3 && d === 1 ? 15 : 0,
        runningMs: running,
        idleMs: upstream + downstream,
        faultMs: fault,
        idleUpstreamMs: upstream,
        idleDownstreamMs: downstream,
      });
    });
  }
  minutes.push(...rows);
  const columns = (r: MinuteRow) => ({
    produced: r.produced,
    ok: r.ok,
    ng: r.ng,
    first_pass_ok: r.firstPassOk,
    gap_produced: r.gapProduced,
    running_ms: r.runningMs,
    idle_ms: r.idleMs,
    fault_ms: r.faultMs,
    idle_upstream_ms: r.idleUpstreamMs,
    idle_downstream_ms: r.idleDownstreamMs,
  });
  await db
    .insertInto('rollup_minute')
    .values(rows.map((r) => ({ sn_code: sn, minute: new Date(r.at), ...columns(r) })))
    .execute();
  // As ingest keeps them: each factory hour's sums (Shanghai's hours are UTC's) and best minute.
  const hours = new Map<number, MinuteRow[]>();
  for (const r of rows) {
    const hour = r.at - (r.at % 3_600_000);
    hours.set(hour, [...(hours.get(hour) ?? []), r]);
  }
  await db
    .insertInto('rollup_hour')
    .values(
      [...hours].map(([hour, ofHour]) => {
        const total = columns(ofHour[0]!);
        for (const r of ofHour.slice(1)) {
          const add = columns(r);
          for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += add[key];
        }
        return {
          sn_code: sn,
          hour: new Date(hour),
          ...total,
          max_minute_produced: Math.max(...ofHour.map((r) => r.produced - r.gapProduced)),
          covered_minutes: ofHour.filter(covers).length,
        };
      }),
    )
    .execute();
  for (let d = 0; d < 3; d++) {
    const ofDay = rows.filter((r) => wallClockOf(r.at, TZ).startsWith(day(d)));
    const total = columns(ofDay[0]!);
    for (const r of ofDay.slice(1)) {
      const add = columns(r);
      for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += add[key];
    }
    await db
      .insertInto('rollup_day')
      .values({
        sn_code: sn,
        day: day(d),
        ...total,
        max_minute_produced: Math.max(...ofDay.map((r) => r.produced - r.gapProduced)),
        covered_minutes: ofDay.filter(covers).length,
      })
      .execute();
  }
};

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  line = await make.createLine();
  hiddenLine = await make.createLine();
  group = await make.createGroup(line);
  hiddenGroup = await make.createGroup(hiddenLine);
  const gw = await make.createGateway();
  sns = await make.createDevices(6, {
    line,
    group,
    gateway: gw,
    produceTargetNumber: 1200,
    ppmTarget: 30,
  });
  hidden = await make.createDevice({
    line: hiddenLine,
    group: hiddenGroup,
    gateway: gw,
    produceTargetNumber: 1200,
    ppmTarget: 30,
  });
  const db = server.linewatch.database.db;
  const place = async (
    sn: string,
    country: string,
    province: string,
    city: string,
    at: [number, number] | null,
  ) =>
    db
      .updateTable('devices')
      .set({ country, province, city, lng: at?.[0] ?? null, lat: at?.[1] ?? null })
      .where('sn_code', '=', sn)
      .execute();
  await place(sns[0]!, '中国', '广东省', '深圳市', [114.0, 22.5]);
  await place(sns[1]!, '中国', '广东省', '深圳市', [114.2, 22.7]);
  await place(sns[2]!, '中国', '江苏省', '苏州市', [120.6, 31.3]);
  await place(sns[3]!, '德国', '', '', null);
  await place(sns[4]!, '中国', '广东省', '东莞市', [113.7, 23.0]);
  await place(sns[5]!, '中国', '广东省', '东莞市', null);
  await place(hidden, '中国', '广东省', '深圳市', [114.1, 22.6]);
  await db
    .updateTable('devices')
    .set({ yield_target: 90, use_rate_target: 80, ng_target_number: 24 })
    .where('sn_code', 'in', [...sns, hidden])
    .execute();
  // Written behind the server's back: the device registry learns it as an admin change would.
  await server.linewatch.registry.reload();
  await writeRollups(sns[0]!, 1);
  await writeRollups(sns[1]!, 2);
  await writeRollups(sns[2]!, 3);
  await writeRollups(hidden, 4);

  gateway = await connectGateway(server.mqttUrl, gw);
  await gateway.telemetry(1, [
    reading(sns[0]!, { produced: 10 }, { status: 2 }),
    reading(sns[1]!, { produced: 10 }, { status: 3 }),
    reading(hidden, { produced: 10 }, { status: 3 }),
  ]);
  await gateway.waitForAck(1);

  const operatorUser = await make.createUser({ lines: [line] });
  const adminUser = await make.createUser({ isAdmin: true });
  operator = api(
    server.baseUrl,
    await login(server.baseUrl, operatorUser.psnCode, operatorUser.password),
  );
  admin = api(server.baseUrl, await login(server.baseUrl, adminUser.psnCode, adminUser.password));
});
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

const okData = async <T>(reply: Promise<{ status: number; text: string; body: { data: T } }>) => {
  const r = await reply;
  expect(r.status, r.text).toBe(200);
  return r.body.data;
};

describe('device map', () => {
  const status = (client: ReturnType<typeof api>, mapLevel: string, positionName = '') =>
    okData(client.get<MapStatus>(statisticsApi.mapData.path, { mapLevel, positionName }));
  const points = async (client: ReturnType<typeof api>, mapLevel: string, positionName = '') =>
    (
      await okData(client.get<MapPoints>(statisticsApi.mapAllData.path, { mapLevel, positionName }))
    ).machineStatusList.sort((a, b) => a.name.localeCompare(b.name));

  it('counts the machines of each area by live status, never one of a hidden line', async () => {
    expect(await status(operator, 'world')).toEqual({
      totalNum: 6,
      runningNum: 1,
      standbyNum: 0,
      errorNum: 1,
      offLineNum: 4,
    });
    expect(await status(operator, 'country', '中国')).toMatchObject({ totalNum: 5, errorNum: 1 });
    expect(await status(operator, 'province', '广东省')).toMatchObject({ totalNum: 4 });
    expect(await status(operator, 'city', '深圳市')).toEqual({
      totalNum: 2,
      runningNum: 1,
      standbyNum: 0,
      errorNum: 1,
      offLineNum: 0,
    });
    // The admin sees the hidden line's machine in fault, in Shenzhen too.
    expect(await status(admin, 'city', '深圳市')).toMatchObject({ totalNum: 3, errorNum: 2 });
  });

  it('drills world → China → province → city with counts and mean positions', async () => {
    expect(await points(operator, 'world')).toEqual(
      [
        { name: '中国', value: 5, coord: expect.any(Array) as unknown },
        { name: '德国', value: 1, coord: null },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect((await points(operator, 'country', '中国')).map((p) => [p.name, p.value])).toEqual(
      [
        ['广东省', 4],
        ['江苏省', 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const guangdong = await points(operator, 'province', '广东省');
    expect(guangdong).toHaveLength(2);
    const shenzhen = guangdong.find((p) => p.name === '深圳市')!;
    expect(shenzhen.value).toBe(2);
    expect(shenzhen.coord![0]).toBeCloseTo(114.1);
    expect(shenzhen.coord![1]).toBeCloseTo(22.6);
    // Only the placed machine of Dongguan gives its position.
    expect(guangdong.find((p) => p.name === '东莞市')).toEqual({
      name: '东莞市',
      value: 2,
      coord: [113.7, 23.0],
    });
    expect(await points(operator, 'city', '深圳市')).toEqual([
      { name: '深圳市', value: 2, coord: shenzhen.coord },
    ]);
  });

  it('counts as the device list does, machine for machine', async () => {
    for (const client of [operator, admin]) {
      const summary = await okData(
        client.get<StatusSummary>(devicesApi.statusSummary.path, { isFollow: '0' }),
      );
      expect(await status(client, 'world')).toEqual({
        totalNum: summary.running + summary.standBy + summary.error + summary.offLine,
        runningNum: summary.running,
        standbyNum: summary.standBy,
        errorNum: summary.error,
        offLineNum: summary.offLine,
      });
    }
  });

  it('moves a machine on the map as soon as an admin changes its place', async () => {
    const rows = await okData(
      admin.get<Page<AdminMachine>>(adminApi.machines.path, {
        pageIndex: 1,
        pageSize: 50,
        keyword: sns[3]!,
      }),
    );
    const german = rows.data.find((m) => m.snCode === sns[3]);
    expect(german?.country).toBe('德国');
    const move = (country: string, province: string, city: string) =>
      okData(
        admin.post<AdminMachine>(adminApi.updateMachine.path, {
          ...german!,
          country,
          province,
          city,
        }),
      );
    await move('中国', '江苏省', '苏州市');
    try {
      expect(await points(operator, 'world')).toEqual([
        { name: '中国', value: 6, coord: expect.any(Array) as unknown },
      ]);
      expect(await points(operator, 'province', '江苏省')).toEqual([
        { name: '苏州市', value: 2, coord: [120.6, 31.3] },
      ]);
    } finally {
      await move('德国', '', '');
    }
    expect(await status(operator, 'country', '德国')).toMatchObject({ totalNum: 1 });
  });

  it('follows a machine that changes status, line and place, counting as the list does', async () => {
    const suzhou = sns[2]!;
    const summaryOf = async (client: ReturnType<typeof api>) => {
      const s = await okData(
        client.get<StatusSummary>(devicesApi.statusSummary.path, { isFollow: '0' }),
      );
      return {
        totalNum: s.running + s.standBy + s.error + s.offLine,
        runningNum: s.running,
        standbyNum: s.standBy,
        errorNum: s.error,
        offLineNum: s.offLine,
      };
    };
    expect(await status(operator, 'city', '苏州市')).toMatchObject({ totalNum: 1, offLineNum: 1 });

    // Status: it reports a fault.
    await gateway.telemetry(2, [reading(suzhou, { produced: 5 }, { status: 3 })]);
    await gateway.waitForAck(2);
    expect(await status(operator, 'city', '苏州市')).toEqual({
      totalNum: 1,
      runningNum: 0,
      standbyNum: 0,
      errorNum: 1,
      offLineNum: 0,
    });
    expect(await status(operator, 'world')).toEqual(await summaryOf(operator));

    // Line: moved to the line the operator may not see, then back.
    const rows = await okData(
      admin.get<Page<AdminMachine>>(adminApi.machines.path, {
        pageIndex: 1,
        pageSize: 50,
        keyword: suzhou,
      }),
    );
    const machine = rows.data.find((m) => m.snCode === suzhou)!;
    const update = (change: Partial<AdminMachine>) =>
      okData(admin.post<AdminMachine>(adminApi.updateMachine.path, { ...machine, ...change }));
    await update({ lineId: hiddenLine.id, groupId: hiddenGroup.id });
    try {
      expect(await status(operator, 'city', '苏州市')).toMatchObject({ totalNum: 0 });
      expect((await points(operator, 'country', '中国')).map((p) => p.name)).toEqual(['广东省']);
      expect(await points(admin, 'province', '江苏省')).toEqual([
        { name: '苏州市', value: 1, coord: [120.6, 31.3] },
      ]);
      for (const client of [operator, admin])
        expect(await status(client, 'world')).toEqual(await summaryOf(client));
    } finally {
      await update({ lineId: line.id, groupId: group.id });
    }

    // Place: moved to Shenzhen, in fault there, then back.
    await update({ province: '广东省', city: '深圳市' });
    try {
      expect(await status(operator, 'city', '苏州市')).toMatchObject({ totalNum: 0 });
      expect(await status(operator, 'city', '深圳市')).toMatchObject({ totalNum: 3, errorNum: 2 });
      const shenzhen = (await points(operator, 'province', '广东省')).find(
        (p) => p.name === '深圳市',
      );
      expect(shenzhen?.value).toBe(3);
      // Its position stays its own: the mean of the three.
      expect(shenzhen?.coord?.[0]).toBeCloseTo((114.0 + 114.2 + 120.6) / 3);
      expect(await status(operator, 'world')).toEqual(await summaryOf(operator));
    } finally {
      await update({ province: '江苏省', city: '苏州市' });
    }
    expect(await status(operator, 'city', '苏州市')).toMatchObject({ totalNum: 1, errorNum: 1 });
  });

  it('refuses a level it does not know and a level below world without a place (0400)', async () => {
    const bad = await operator.get(statisticsApi.mapData.path, { mapLevel: 'district' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: ReplyCode.badInput,
      msg: statisticsMessages.badMapLevel,
    });
    const noPlace = await operator.get(statisticsApi.mapAllData.path, { mapLevel: 'province' });
    expect(noPlace.body).toMatchObject({
      code: ReplyCode.badInput,
      msg: statisticsMessages.positionRequired,
    });
  });
});

describe('product lines and groups', () => {
  it('lists only the lines the user may see, and their groups', async () => {
    const lines = await okData(operator.get<Option[]>(statisticsApi.productLines.path));
    expect(lines).toEqual([{ label: line.name, value: line.name }]);
    const groups = await okData(
      operator.get<Option[]>(statisticsApi.productGroups.path, { productLine: line.name }),
    );
    expect(groups).toEqual([{ label: group.name, value: group.name }]);
  });

  it('answers a hidden line like an unknown one (0400)', async () => {
    const reply = await operator.get(statisticsApi.productGroups.path, {
      productLine: hiddenLine.name,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe(statisticsMessages.unknownLine);
  });
});

describe('statistics', () => {
  const start = () => `${day(0)} 08:00:00`;
  const end = () => `${day(2)} 10:00:00`;
  const query = (extra: Record<string, string | number> = {}) => ({
    dataStartDate: start(),
    dataEndDate: end(),
    ...extra,
  });

  /**
   * What a card must say, from the test's own minute rows (docs/design.md section 5): one minute of
   * the whole middle day holds parts counted across a silence, in the totals but not in PPM.
   */
  const expected = (sn: string) => {
    const [from, to] = [instantOf(start(), TZ), instantOf(end(), TZ)];
    const rows = minutes.filter((r) => r.sn === sn && r.at >= from && r.at < to);
    const sum = (key: keyof MinuteRow) => rows.reduce((s, r) => s + Number(r[key]), 0);
    const round2 = (n: number) => Math.round(n * 100) / 100;
    const running = sum('runningMs');
    const observed = sum('produced') - sum('gapProduced');
    const covered = rows.filter(covers).length;
    const ok = sum('ok');
    const ng = sum('ng');
    const share = (to - from) / DAY_MS;
    return {
      produceNumber: sum('produced'),
      produceTargetNumber: Math.round(1200 * share),
      ngNumber: ng,
      ngTargetNumber: Math.round(24 * share),
      yield: ok + ng ? round2((ok / (ok + ng)) * 100) : null,
      avgPPM: covered ? round2(observed / covered) : null,
      maxPPM: rows.length ? Math.max(...rows.map((r) => r.produced - r.gapProduced)) : 0,
      useRate:
        running + sum('idleMs') + sum('faultMs')
          ? round2((running / (running + sum('idleMs') + sum('faultMs'))) * 100)
          : null,
      runningTime: Math.round(running / 1000),
      errorTime: Math.round(sum('faultMs') / 1000),
      waitingTime: Math.round(sum('idleMs') / 1000),
      preProcessWaitingTime: Math.round(sum('idleUpstreamMs') / 1000),
      afterProcessWaitingTime: Math.round(sum('idleDownstreamMs') / 1000),
    };
  };

  const page = (client: ReturnType<typeof api>, extra: Record<string, string | number> = {}) =>
    okData(client.get<StatisticsReply>(statisticsApi.statistics.path, query(extra)));

  it('pages the visible machines five at a time, each figure from the rollups', async () => {
    const first = await page(operator);
    const second = await page(operator, { pageIndex: 2 });
    expect(first.total).toBe(6);
    expect(first.data).toHaveLength(5);
    expect(second.data).toHaveLength(1);
    const rows = [...first.data, ...second.data];
    expect(rows.map((r) => r.machineCode).sort()).toEqual([...sns].sort());
    for (const sn of sns.slice(0, 3)) {
      const row = rows.find((r) => r.machineCode === sn)!;
      expect(row).toMatchObject({
        ...expected(sn),
        ppmTarget: 30,
        yieldTarget: 90,
        useRateTarget: 80,
      });
      expect(row.productLine).toBe(line.name);
      expect(row.productGroup).toBe(group.name);
    }
  });

  it('says no data (null), not 0, for a machine with no rollup in the range', async () => {
    const rows: StatisticsRow[] = (await page(operator, { pageIndex: 2 })).data;
    expect(rows[0]).toMatchObject({
      machineCode: sns[5],
      produceNumber: 0,
      yield: null,
      avgPPM: null,
      useRate: null,
      maxPPM: 0,
    });
  });

  it('never counts a machine of a line the user may not see', async () => {
    const all = [...(await page(operator)).data, ...(await page(operator, { pageIndex: 2 })).data];
    expect(all.map((r) => r.machineCode)).not.toContain(hidden);
    const adminAll = await page(admin, { pageSize: 100 });
    const hiddenRow = adminAll.data.find((r) => r.machineCode === hidden);
    expect(hiddenRow).toMatchObject(expected(hidden));
  });

  it('narrows to a product line and group', async () => {
    const filters = JSON.stringify({ productLine: line.name, productGroup: group.name });
    expect((await page(admin, { filters, pageSize: 100 })).total).toBe(6);
  });

  it('reads a range of whole days from the day rollups', async () => {
    const reply = await page(operator, {
      dataStartDate: `${day(0)} 00:00:00`,
      dataEndDate: `${day(3)} 00:00:00`,
    });
    const row = reply.data.find((r) => r.machineCode === sns[1])!;
    const all = minutes.filter((r) => r.sn === sns[1]);
    expect(row.produceNumber).toBe(all.reduce((s, r) => s + r.produced, 0));
    expect(row.maxPPM).toBe(Math.max(...all.map((r) => r.produced - r.gapProduced)));
  });

  it('shows a late replay into a past day in the next answer (past days, hours and minutes are kept between requests)', async () => {
    const make = factories(server.linewatch);
    const lateLine = await make.createLine();
    const gw = await make.createGateway();
    const sn = await make.createDevice({ line: lateLine, gateway: gw });
    const filters = JSON.stringify({ productLine: lateLine.name });
    // Whole days; and a range that starts inside day(1): its minutes to 09:00, its hours to
    // midnight, then whole days.
    const queries = [`${day(0)} 00:00:00`, `${day(1)} 08:30:00`].map((dataStartDate) => ({
      dataStartDate,
      dataEndDate: `${day(3)} 00:00:00`,
      filters,
    }));
    const rowsOf = async () =>
      Promise.all(
        queries.map(
          async (query) =>
            (await page(admin, query)).data.find((r) => r.machineCode === sn)!.produceNumber,
        ),
      );
    expect(await rowsOf()).toEqual([0, 0]);
    expect(await rowsOf()).toEqual([0, 0]);

    // A gateway's buffer sent long after: readings of day(1), a minute apart.
    const at = instantOf(`${day(1)} 12:00:00`, TZ);
    const late = await connectGateway(server.mqttUrl, gw);
    try {
      await late.telemetry(1, [reading(sn, { produced: 100 }, { ts: at })]);
      await late.telemetry(2, [reading(sn, { produced: 130 }, { ts: at + 60_000 })]);
      await late.waitForAck(2);
    } finally {
      await late.close();
    }
    const stored = await probes(server.linewatch.database.db).producedTotal(sn);
    expect(stored).toBeGreaterThan(0);
    expect(await rowsOf()).toEqual([stored, stored]);
  });

  describe('refuses a bad query with the spec message and code 0400', () => {
    const future = () => wallClockOf(Date.now() + 3_600_000, TZ);
    const cases: [string, () => Record<string, string>, string][] = [
      ['no start time', () => ({ dataEndDate: end() }), statisticsMessages.timeRequired],
      ['no end time', () => ({ dataStartDate: start() }), statisticsMessages.timeRequired],
      [
        'a start after the end',
        () => ({ dataStartDate: end(), dataEndDate: start() }),
        statisticsMessages.startAfterEnd,
      ],
      [
        'an end in the future',
        () => ({ dataStartDate: start(), dataEndDate: future() }),
        statisticsMessages.future,
      ],
      [
        'a range over 31 days',
        () => ({
          dataStartDate: wallClockOf(Date.now() - 40 * DAY_MS, TZ),
          dataEndDate: wallClockOf(Date.now() - 8 * DAY_MS, TZ),
        }),
        statisticsMessages.rangeTooLong,
      ],
      [
        'a date that does not exist',
        () => ({ dataStartDate: '2026-02-30 08:00:00', dataEndDate: start() }),
        statisticsMessages.badTime,
      ],
      [
        'a product group without a line',
        () => ({ ...query(), filters: JSON.stringify({ productGroup: group.name }) }),
        statisticsMessages.lineFirst,
      ],
      [
        'an unknown product line',
        () => ({ ...query(), filters: JSON.stringify({ productLine: '没有这条线' }) }),
        statisticsMessages.unknownLine,
      ],
      [
        'a line the user may not see',
        () => ({ ...query(), filters: JSON.stringify({ productLine: hiddenLine.name }) }),
        statisticsMessages.unknownLine,
      ],
      [
        'a group not on the line',
        () => ({
          ...query(),
          filters: JSON.stringify({ productLine: line.name, productGroup: hiddenGroup.name }),
        }),
        statisticsMessages.unknownGroup,
      ],
      [
        'filters that are not JSON',
        () => ({ ...query(), filters: '{' }),
        statisticsMessages.badFilters,
      ],
    ];
    it.each(cases)('%s', async (_name, build, message) => {
      const reply = await operator.get(statisticsApi.statistics.path, build());
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body).toMatchObject({ success: false, code: ReplyCode.badInput, msg: message });
    });
  });
});
