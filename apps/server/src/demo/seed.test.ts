import type { FailureCase } from '@linewatch/contracts/cases';
import { casesApi } from '@linewatch/contracts/cases-api';
import type { MachineCard } from '@linewatch/contracts/devices';
import type { HistoryReply } from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { sockets } from '@linewatch/contracts/telemetry-api';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../foundation/config/config.ts';
import { dayOf } from '../foundation/shared/time.ts';
import { api, login } from '../test/http.ts';
import { REPO_ROOT } from '../test/server-process.ts';
import { openSocket } from '../test/socket.ts';
import { startTestServer, TEST_SECRET, type TestServer } from '../test/test-server.ts';
import { demoPlcCount, demoSignIns, seedDemo, writeDemoGatewayConfig } from './seed.ts';

const LIST = '/api/wechat/machine/list/findMachineDataByCondition';
/** apps/gateway/src/drivers/simulated.ts */
const SIMULATOR_ALARMS = ['E101', 'E205', 'E307', 'E412', 'E518'];

interface GatewayFile {
  modbusPort: number;
  gateways: {
    id: string;
    machines: { sn: string; driver: string; plcIp: string; port: number; plcModel: string }[];
  }[];
}
type PlcFile = {
  sn: string;
  port: number;
  model: string;
  faultRate?: number;
  maintenance?: { alarm: string };
}[];

/** The demo's agent config and plc-sim file, written with ports 30000, 30001, … */
const demoFiles = () => {
  const ports = Array.from({ length: demoPlcCount() }, (_, i) => 30_000 + i);
  const files = writeDemoGatewayConfig(loadTestConfig(), 'mqtt://x', ports);
  return {
    gateways: JSON.parse(readFileSync(files.gateways, 'utf8')) as GatewayFile,
    plcs: JSON.parse(readFileSync(files.plcs, 'utf8')) as PlcFile,
  };
};

describe('the demo factory', () => {
  let server: TestServer;
  // The demo seeds 90 days of history for 66 machines before the server listens: 35-54 s while
  // the other suites share the two cores (seen in CI), over the default 60 s hook.
  beforeAll(async () => {
    server = await startTestServer({ DEMO: '1' });
  }, 180_000);
  afterAll(() => server?.close());
  const db = () => server.linewatch.database.db;

  const list = async (psnCode: string, query: Record<string, string | number> = {}) => {
    const password = demoSignIns.find((s) => s.psnCode === psnCode)!.password;
    const reply = await api(server.baseUrl, await login(server.baseUrl, psnCode, password)).get<{
      data: MachineCard[];
      total: number;
    }>(LIST, { pageSize: 100, ...query });
    expect(reply.status).toBe(200);
    return reply.body.data;
  };

  it('has a line with more machines than one page holds', async () => {
    const page = await list('admin', { produceLine: 'SMT一线', pageSize: 15 });
    expect(page.data).toHaveLength(15);
    expect(page.total).toBeGreaterThan(15);
  });

  it('has a machine without a gateway (iot 0) and machines behind an offline gateway (iot 2)', async () => {
    const { data } = await list('admin');
    expect(data.filter((m) => m.iot === 0).map((m) => m.snCode)).toEqual(['LW-P1-012']);
    expect(data.filter((m) => m.iot === 2).length).toBeGreaterThan(0);
  });

  it('an offline machine with parts today says when it last reported; one never heard, nothing', async () => {
    const password = demoSignIns.find((s) => s.psnCode === 'admin')!.password;
    const keyId = await login(server.baseUrl, 'admin', password);
    const realtime = async (sn: string) => {
      const socket = openSocket(server.wsUrl, sockets.realtime.path(sn), {
        headers: { [KEY_ID_HEADER]: keyId },
      });
      try {
        return await socket.waitForMessage<RealtimePayload>((m) => m.SN === sn);
      } finally {
        socket.close();
      }
    };
    const figure = (p: RealtimePayload, key: string) =>
      p.productData.find((d) => d.key === key)!.value;
    // Behind the gateway that never comes online, and unplugged from a running one.
    for (const sn of ['LW-A2-011', 'LW-S2-012']) {
      const offline = await realtime(sn);
      expect(offline.EquipmentStatus, sn).toBe(0);
      expect(offline.updatedAt, sn).not.toBeNull();
      expect(offline.updatedAt!, sn).toBeLessThanOrEqual(Date.now());
      // Parts today when it last reported today; in the minutes after midnight, before its
      // silence began, today has none (CI once ran this at 00:04 in Shanghai).
      const { TIMEZONE } = loadTestConfig();
      const reportedToday = dayOf(offline.updatedAt!, TIMEZONE) === dayOf(Date.now(), TIMEZONE);
      expect((figure(offline, 'produced') ?? 0) > 0, sn).toBe(reportedToday);
    }
    const never = await realtime('LW-P1-012');
    expect([never.updatedAt, figure(never, 'produced')]).toEqual([null, 0]);
  });

  it('says each alarm in the one dictionary, and each case names its own machine', async () => {
    const definitions = new Map(
      (await db().selectFrom('alarm_definitions').select(['code', 'description']).execute()).map(
        (d) => [d.code, d.description],
      ),
    );
    const questions = await db()
      .selectFrom('faca_questions')
      .select(['sn_code', 'warning_content'])
      .execute();
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      const [code] = q.warning_content.split(' ');
      expect(q.warning_content, q.sn_code).toBe(`${code} ${definitions.get(code!)}`);
    }
    const cases = await db().selectFrom('failure_cases').select(['id', 'sn_code']).execute();
    const names = new Map(
      (await db().selectFrom('devices').select(['sn_code', 'device_name']).execute()).map((d) => [
        d.sn_code,
        d.device_name,
      ]),
    );
    for (const c of cases) {
      const reply = await api(server.baseUrl).get<FailureCase>(casesApi.failureCase.path, {
        casesId: c.id,
      });
      expect(reply.body.data.deviceName, c.sn_code).toBe(names.get(c.sn_code));
      expect(reply.body.data.description).toBe(definitions.get(reply.body.data.warningCode));
    }
  });

  it('runs the simulators of some machines only: the others stay offline', async () => {
    const { gateways: config, plcs } = demoFiles();
    const simulated = new Set(config.gateways.flatMap((g) => g.machines.map((m) => m.sn)));
    const devices = await db().selectFrom('devices').select(['sn_code', 'gateway_id']).execute();
    const runningGateways = new Set(config.gateways.map((g) => g.id));
    const offline = devices.filter((d) => !simulated.has(d.sn_code));
    // Not published by a gateway that runs, behind a gateway that never runs, without a gateway.
    expect(offline.some((d) => d.gateway_id && runningGateways.has(d.gateway_id))).toBe(true);
    expect(offline.some((d) => d.gateway_id && !runningGateways.has(d.gateway_id))).toBe(true);
    expect(offline.some((d) => d.gateway_id === null)).toBe(true);
    // And one machine that is in fault most of the time.
    expect(plcs.filter((m) => (m.faultRate ?? 0) > 0.3).length).toBeGreaterThan(0);
  });

  it('polls every published machine, a simulated PLC on a port of its own: one over OPC UA, one over S7, the rest over Modbus TCP', () => {
    const { gateways: config, plcs } = demoFiles();
    const polled = config.gateways.flatMap((g) => g.machines);
    const portOf = new Map(plcs.map((p) => [p.sn, p.port]));
    const modelOf = new Map(plcs.map((p) => [p.sn, p.model]));
    for (const m of polled) {
      expect(m).toMatchObject({ plcIp: '127.0.0.1', plcModel: modelOf.get(m.sn) });
      expect(portOf.get(m.sn)).toBe(m.port);
    }
    const kinds = polled.map((m) => `${m.driver} ${m.plcModel}`);
    expect(kinds.filter((k) => k === 'opcua OPCUA-LW')).toHaveLength(1);
    expect(kinds.filter((k) => k === 's7 S7-1200-S7')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'modbus FX5U')).toHaveLength(polled.length - 2);
    expect(new Set(plcs.map((p) => p.port)).size).toBe(plcs.length);
    // The spare PLC answers at the agents' Modbus port: the machine without a gateway, bound from
    // the phone with PLC IP 127.0.0.1.
    expect(plcs.find((p) => p.port === config.modbusPort)?.sn).toBe('LW-P1-012');
    expect(polled.map((m) => m.sn)).not.toContain('LW-P1-012');
  });

  it('has a machine the operator sees waiting for maintenance: in an E518 fault for hours', async () => {
    const machine = demoFiles().plcs.find((m) => m.maintenance);
    expect(machine).toMatchObject({ sn: 'LW-S1-005', maintenance: { alarm: 'E518' } });
    const { data } = await list('operator');
    expect(data.map((m) => m.snCode)).toContain('LW-S1-005');
    // Its history ends in that fault, begun two hours before the seed.
    const last = await db()
      .selectFrom('alarms')
      .select(['code', 'begin_at', 'end_at'])
      .where('sn_code', '=', 'LW-S1-005')
      .orderBy('begin_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.code).toBe('E518');
    const hours =
      (new Date(last.end_at!).getTime() - new Date(last.begin_at).getTime()) / 3_600_000;
    expect(hours).toBe(2);
    const status = await db()
      .selectFrom('status_changes')
      .select('status')
      .where('sn_code', '=', 'LW-S1-005')
      .orderBy('ts', 'desc')
      .executeTakeFirstOrThrow();
    expect(status.status).toBe(3);
  });

  it('tells the operator of the reflow oven’s alarms, whose case has a guidance video', async () => {
    const follow = await db()
      .selectFrom('user_follows as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['f.alarm', 'f.real_time_reminder'])
      .where('u.psn_code', '=', 'operator')
      .where('f.sn_code', '=', 'LW-S1-005')
      .executeTakeFirstOrThrow();
    expect(follow).toEqual({ alarm: true, real_time_reminder: false });
    const id = await server.linewatch.app.cases.caseIdOf('E518');
    const found = await server.linewatch.app.cases.get(id!);
    const videoUrl = found.shootings[0]!.videoUrl!;
    expect(videoUrl).toBe('/cases/e518-guide.mp4');
    // A static file of the web app, and a real MP4: an ISO BMFF "ftyp" box first, small.
    const video = readFileSync(join(REPO_ROOT, 'apps/web/public', videoUrl));
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(video.length).toBeGreaterThan(1_000);
    expect(video.length).toBeLessThan(300_000);
    // The other shootings and cases keep their pictures only.
    expect(found.shootings.slice(1).every((s) => s.videoUrl === null)).toBe(true);
  });

  it('has machines the operator follows (我的关注), within the lines the operator sees', async () => {
    const { data } = await list('operator');
    const followed = data.filter((m) => m.isCollect);
    expect(followed.length).toBeGreaterThanOrEqual(2);
  });

  it('has alarms with the simulator’s codes, nicknames, and 90 days of history', async () => {
    const codes = await db().selectFrom('alarms').select('code').distinct().execute();
    expect(codes.map((c) => c.code).sort()).toEqual(SIMULATOR_ALARMS);
    const nick = await db()
      .selectFrom('devices')
      .select('sn_code')
      .where('nick_sn_code', '!=', '')
      .execute();
    expect(nick.length).toBeGreaterThan(0);
    const { first } = await db()
      .selectFrom('rollup_day')
      .select((eb) => eb.fn.min('day').as('first'))
      .executeTakeFirstOrThrow();
    // A date column: a Date from PGlite, a 'YYYY-MM-DD' string from PostgreSQL (both UTC midnight).
    const days = (Date.now() - new Date(first).getTime()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(90);
    expect(days).toBeLessThan(93);
  });

  it('has yesterday whole, hour by hour, and every older day its hours: each day view draws them, and they make its total', async () => {
    const { TIMEZONE } = loadTestConfig();
    const yesterday = dayOf(Date.now() - 86_400_000, TIMEZONE);
    const dayBefore = dayOf(Date.now() - 2 * 86_400_000, TIMEZONE);
    const password = demoSignIns.find((s) => s.psnCode === 'operator')!.password;
    const history = (beginTime: string, endTime: string) =>
      api(server.baseUrl, keyId)
        .get<HistoryReply>(historyApi.history.path, {
          snCode: 'LW-S1-002',
          beginTime,
          endTime,
        })
        .then((r) => r.body.data);
    const keyId = await login(server.baseUrl, 'operator', password);
    const hours = await history(yesterday, yesterday);
    expect(hours.threeParamList).toHaveLength(24);
    expect(hours.threeParamList.every((h) => h.hasData)).toBe(true);
    const days = await history(dayBefore, yesterday);
    expect(days.threeParamList.map((d) => d.dataDate)).toEqual([dayBefore, yesterday]);
    expect(hours.threeParamList.reduce((sum, h) => sum + h.produceNumber, 0)).toBe(
      days.threeParamList[1]!.produceNumber,
    );
    // Older days have no minutes, as past the retention, but every one draws its 24 hours,
    // and they make its total.
    for (const daysAgo of [2, 60, 89]) {
      const ts = Date.now() - daysAgo * 86_400_000;
      const [day, next] = [dayOf(ts, TIMEZONE), dayOf(ts + 86_400_000, TIMEZONE)];
      const byHour = await history(day, day);
      expect(
        byHour.threeParamList.every((h) => h.hasData),
        day,
      ).toBe(true);
      const range = await history(day, next);
      expect(range.threeParamList[0]!.dataDate).toBe(day);
      expect(
        byHour.threeParamList.reduce((sum, h) => sum + h.produceNumber, 0),
        day,
      ).toBe(range.threeParamList[0]!.produceNumber);
    }
  });

  it('is seeded once: a restart finds the admin and changes nothing', async () => {
    const count = async () =>
      (
        await db()
          .selectFrom('rollup_day')
          .select(db().fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    await seedDemo(db(), loadTestConfig(), server.linewatch.app.log);
    expect(await count()).toBe(before);
  });
});

const dataDir = mkdtempSync(join(tmpdir(), 'lw-seed-test-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const loadTestConfig = () => loadConfig({ SECRET: TEST_SECRET, DEMO: '1', DATA_DIR: dataDir });
