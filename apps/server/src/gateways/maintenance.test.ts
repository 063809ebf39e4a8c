import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineCard, MachineListReply } from '@linewatch/contracts/devices';
import {
  maintenanceSocket,
  type GatewayCredential,
  type GatewayRow,
  type MaintenanceReply,
  type PlcModelOption,
} from '@linewatch/contracts/gateways';
import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayAgent, type AgentProcess } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { runSimulatedPlc, type PlcProcess } from '../test/plc-sim.ts';
import { openSocket } from '../test/socket.ts';
import { factories, type TestLine } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step();
});

let serials = 0;
/** 12 characters, as the phone requires; unique per run so a shared broker keeps them apart. */
const nextSerial = () =>
  `GW${String(Date.now() % 1e6).padStart(6, '0')}${String(++serials).padStart(4, '0')}`;

const bindOf = (snCode: string, iotId: string, over: Record<string, unknown> = {}) => ({
  MsgType: 'bind',
  snCode,
  plcIp: '127.0.0.1',
  iotId,
  iotIp: '192.168.1.2,10.0.0.2',
  plcModel: 'FX5U',
  ...over,
});

describe('bind and unbind from the phone', () => {
  let server: TestServer;
  let make: ReturnType<typeof factories>;
  let line: TestLine;
  let keyId: string;
  let adminKeyId: string;

  beforeAll(async () => {
    // The phone is answered 504 after this long instead of 10 s.
    server = await startTestServer({ GATEWAY_COMMAND_TIMEOUT_MS: '1500' });
    make = factories(server.linewatch);
    line = await make.createLine();
    const user = await make.createUser({ lines: [line] });
    const admin = await make.createUser({ isAdmin: true });
    keyId = await login(server.baseUrl, user.psnCode, user.password);
    adminKeyId = await login(server.baseUrl, admin.psnCode, admin.password);
  });
  afterAll(() => server?.close());

  /** A maintenance socket of one gateway, signed in as the line's user (or `as`). */
  const maintenance = async (serial: string, as = keyId) => {
    const socket = openSocket(server.wsUrl, maintenanceSocket.path(serial), {
      headers: { [KEY_ID_HEADER]: as },
    });
    cleanups.push(async () => socket.close());
    expect(await socket.opened).toBe(true);
    return {
      socket,
      /** Sends one message and resolves with the reply it gets. */
      ask: async (message: unknown) => {
        const before = socket.messages.length;
        socket.send(message);
        await waitFor(() => socket.messages.length > before, { what: 'the reply' });
        return socket.messages[before] as MaintenanceReply;
      },
    };
  };

  const register = async (): Promise<GatewayCredential> => {
    const reply = await api(server.baseUrl, adminKeyId).post<GatewayCredential>(
      gatewaysApi.adminRegister.path,
      { serial: nextSerial() },
    );
    expect(reply.body.code).toBe('0000');
    return reply.body.data;
  };

  const card = async (sn: string) => {
    const reply = await api(server.baseUrl, keyId).get<MachineListReply>(
      devicesApi.machineList.path,
      { nameTag: sn },
    );
    return reply.body.data.data.find((d: MachineCard) => d.snCode === sn);
  };

  /** A registered gateway with the real agent running (no machines yet) and a Modbus PLC. */
  const liveGateway = async () => {
    const credential = await register();
    const plc: PlcProcess = await runSimulatedPlc();
    cleanups.push(() => plc.stop());
    const agent: AgentProcess = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ id: credential.serial, secret: credential.secret, machines: [] }],
      settings: { modbusPort: plc.port, modbusReconnectMs: 200 },
    });
    cleanups.push(() => agent.dispose());
    await waitFor(() => server.linewatch.presence.isOnline(credential.serial), {
      timeout: 30_000,
      what: 'the agent online',
    });
    return { serial: credential.serial, agent, plc };
  };

  it('binds through the agent to a Modbus PLC: telemetry appears, the audit says who; unbind stops it', async () => {
    const { serial, plc } = await liveGateway();
    const sn = await make.createDevice({ line });
    expect((await card(sn))?.iot).toBe(0);
    const { ask } = await maintenance(serial);

    expect(await ask(bindOf(sn, serial, { keyId, plcPort: plc.port }))).toEqual({
      MsgType: 'bindResult',
      Code: 200,
      Content: '绑定成功',
    });
    // Modbus reads → telemetry → the list: the machine produces and its gateway is online.
    const bound = await waitFor(
      async () => {
        const c = await card(sn);
        return c && c.iot === 1 && c.produceNumber > 0 && c;
      },
      { timeout: 30_000, what: 'the bound machine producing in the list' },
    );
    expect(bound.deviceStatus).not.toBe('offLine');
    const { db } = server.linewatch.database;
    const device = await db
      .selectFrom('devices')
      .select(['gateway_id', 'plc_ip', 'plc_port', 'plc_unit_id', 'plc_model'])
      .where('sn_code', '=', sn)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({
      gateway_id: serial,
      plc_ip: '127.0.0.1',
      plc_port: plc.port,
      // Left out of the message: the model's (plc-profiles.json).
      plc_unit_id: 1,
      plc_model: 'FX5U',
    });

    expect(await ask({ MsgType: 'unbind', snCode: sn, iotId: serial })).toEqual({
      MsgType: 'unbindResult',
      Code: 200,
      Content: '解绑成功',
    });
    expect((await card(sn))?.iot).toBe(0);
    // In the audit log the admin pages show.
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'after'])
      .where('target', '=', `gateway:${serial}`)
      .where('action', 'in', ['gateway.bind', 'gateway.unbind'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['gateway.bind', 'gateway.unbind']);
    expect(audit[0]?.after).toMatchObject({ snCode: sn, plcModel: 'FX5U' });
    expect(audit[1]?.after).toEqual({ snCode: sn });
    expect(audit[0]?.actor_name).toBeTruthy();

    // The registry shows the agent: online, its version, no machines now.
    const list = await api(server.baseUrl, adminKeyId).get<GatewayRow[]>(
      gatewaysApi.adminList.path,
    );
    expect(list.body.data.find((g) => g.serial === serial)).toMatchObject({
      online: true,
      agentVersion: expect.any(String) as unknown,
      machines: [],
    });
  });

  it('after a bind and an unbind, a restarted agent reads its configured machines where its configuration says now', async () => {
    // The demo's case (issue 25): simulated PLCs get new ports at every start, and the agent's
    // configuration says so; a bind and an unbind from the phone must not pin the old ones.
    const { serial, secret } = await register();
    const gateway = { id: serial, secret };
    const [a, b, c] = [
      await make.createDevice({ line, gateway }),
      await make.createDevice({ line, gateway }),
      await make.createDevice({ line }),
    ];
    const units = [
      { unitId: 1, model: 'FX5U', sn: 'UNIT-1' },
      { unitId: 2, model: 'FX5U', sn: 'UNIT-2' },
    ];
    const configured = (port: number) =>
      [a, b].map((sn, i) => ({
        sn,
        driver: 'modbus' as const,
        plcIp: '127.0.0.1',
        port,
        unitId: i + 1,
        plcModel: 'FX5U',
      }));
    const before = await runSimulatedPlc({ units });
    const phones = await runSimulatedPlc({ sn: 'BOUND' });
    cleanups.push(() => phones.stop());
    const dir = mkdtempSync(join(tmpdir(), 'lw-agent-restart-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ ...gateway, machines: configured(before.port) }],
      settings: { modbusReconnectMs: 200 },
      dir,
    });
    const readSince = (sn: string, since: number) =>
      waitFor(() => (server.linewatch.live.get(sn)?.snapshot?.ts ?? 0) > since, {
        timeout: 30_000,
        what: `a reading of ${sn}`,
      });
    await readSince(b, 0);
    const { ask } = await maintenance(serial);
    expect(await ask(bindOf(c, serial, { plcPort: phones.port }))).toMatchObject({ Code: 200 });
    expect(await ask({ MsgType: 'unbind', snCode: a, iotId: serial })).toMatchObject({
      Code: 200,
    });
    await readSince(c, 0);

    // Restarted with its PLCs on another port, as the demo is.
    await first.kill();
    await before.stop();
    const after = await runSimulatedPlc({ units });
    cleanups.push(() => after.stop());
    const restartedAt = Date.now();
    const second = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ ...gateway, machines: configured(after.port) }],
      settings: { modbusReconnectMs: 200 },
      dir,
    });
    cleanups.push(() => second.kill());
    // The configured machine at its new address, the phone's bind where it was made.
    await readSince(b, restartedAt);
    await readSince(c, restartedAt);
    expect((await card(a))?.iot).toBe(0);
  });

  it('binds PLCs as sites have them: a non-502 port, and two PLCs on one IP by port or unit id', async () => {
    const credential = await register();
    // One PLC alone on a port that is not 502; behind another port, an FX5U at unit 1 and an
    // S7-1200 at unit 2 (a Modbus gateway with serial PLCs). The agent's own default port (502)
    // has nothing behind it: a bind that loses its port reads nothing.
    const solo = await runSimulatedPlc({ sn: 'SOLO' });
    cleanups.push(() => solo.stop());
    const shared = await runSimulatedPlc({
      units: [
        { unitId: 1, model: 'FX5U', sn: 'UNIT-1' },
        { unitId: 2, model: 'S7-1200', sn: 'UNIT-2' },
      ],
    });
    cleanups.push(() => shared.stop());
    const agent = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ id: credential.serial, secret: credential.secret, machines: [] }],
      settings: { modbusReconnectMs: 200 },
    });
    cleanups.push(() => agent.dispose());
    const serial = credential.serial;
    await waitFor(() => server.linewatch.presence.isOnline(serial), {
      timeout: 30_000,
      what: 'the agent online',
    });
    const [a, b, c, d] = [
      await make.createDevice({ line }),
      await make.createDevice({ line }),
      await make.createDevice({ line }),
      await make.createDevice({ line }),
    ];
    const { ask } = await maintenance(serial);
    const at = (port: number, unitId: number, over: Record<string, unknown> = {}) => ({
      plcPort: port,
      unitId,
      ...over,
    });
    expect(await ask(bindOf(a, serial, at(solo.port, 1)))).toMatchObject({ Code: 200 });
    expect(await ask(bindOf(b, serial, at(shared.port, 1)))).toMatchObject({ Code: 200 });
    expect(await ask(bindOf(c, serial, at(shared.port, 2, { plcModel: 'S7-1200' })))).toMatchObject(
      { Code: 200 },
    );
    // IP, port and unit id together name a PLC: the same three again is a clash.
    expect(await ask(bindOf(d, serial, at(shared.port, 2)))).toEqual({
      MsgType: 'bindResult',
      Code: 409,
      Content: `PLC 127.0.0.1:${shared.port} 站号2 已被机台${c}使用`,
    });

    // Each produces: read at its own port, the S7 at unit 2 in its own register map.
    for (const sn of [a, b, c])
      await waitFor(
        async () => {
          const card_ = await card(sn);
          return card_ && card_.iot === 1 && card_.produceNumber > 0;
        },
        { timeout: 30_000, what: `${sn} producing in the list` },
      );
    const rows = await server.linewatch.database.db
      .selectFrom('devices')
      .select(['sn_code', 'plc_ip', 'plc_port', 'plc_unit_id', 'plc_model'])
      .where('sn_code', 'in', [a, b, c, d])
      .orderBy('sn_code')
      .execute();
    expect(rows).toEqual(
      [
        { sn_code: a, plc_ip: '127.0.0.1', plc_port: solo.port, plc_unit_id: 1, plc_model: 'FX5U' },
        {
          sn_code: b,
          plc_ip: '127.0.0.1',
          plc_port: shared.port,
          plc_unit_id: 1,
          plc_model: 'FX5U',
        },
        {
          sn_code: c,
          plc_ip: '127.0.0.1',
          plc_port: shared.port,
          plc_unit_id: 2,
          plc_model: 'S7-1200',
        },
        { sn_code: d, plc_ip: null, plc_port: null, plc_unit_id: null, plc_model: null },
      ].sort((x, y) => x.sn_code.localeCompare(y.sn_code)),
    );
    // The registry shows where each is read.
    const list = await api(server.baseUrl, adminKeyId).get<GatewayRow[]>(
      gatewaysApi.adminList.path,
    );
    expect(list.body.data.find((g) => g.serial === serial)?.machines).toContainEqual({
      snCode: c,
      plcIp: '127.0.0.1',
      plcPort: shared.port,
      unitId: 2,
      plcModel: 'S7-1200',
    });
  });

  it('answers 404 for an unknown gateway or machine, 403 for a machine on another line', async () => {
    const { serial } = await liveGateway();
    const stranger = await make.createDevice({ line: await make.createLine() });
    const { ask } = await maintenance(serial);
    const unknownSerial = 'NOSUCHGW0001';
    const other = await maintenance(unknownSerial);
    const sn = await make.createDevice({ line });

    expect(await other.ask(bindOf(sn, unknownSerial))).toMatchObject({
      Code: 404,
      Content: `网关${unknownSerial}未登记，请联系管理员`,
    });
    expect(await ask(bindOf('SN-NOT-REGISTERED', serial))).toMatchObject({
      Code: 404,
      Content: '机台SN-NOT-REGISTERED不存在，请先登记机台',
    });
    expect(await ask(bindOf(stranger, serial))).toMatchObject({
      Code: 403,
      Content: '无权查看，请联系管理员',
    });
    expect(await ask({ MsgType: 'unbind', snCode: stranger, iotId: serial })).toMatchObject({
      MsgType: 'unbindResult',
      Code: 403,
    });
  });

  it('answers 504 when the gateway does not reply, and stores nothing', async () => {
    const { serial } = await register();
    const sn = await make.createDevice({ line });
    const { ask } = await maintenance(serial);
    expect(await ask(bindOf(sn, serial))).toEqual({
      MsgType: 'bindResult',
      Code: 504,
      Content: '网关无响应，请检查网关是否在线',
    });
    expect(server.linewatch.registry.get(sn)?.gatewayId).toBeNull();
  });

  it('answers 409 for a machine bound elsewhere, a PLC IP in use, a gateway IP equal to the PLC IP', async () => {
    const { serial } = await liveGateway();
    const elsewhere = await make.createGateway();
    const boundElsewhere = await make.createDevice({ line, gateway: elsewhere });
    const first = await make.createDevice({ line });
    const second = await make.createDevice({ line });
    const { ask } = await maintenance(serial);

    expect(await ask(bindOf(boundElsewhere, serial))).toMatchObject({
      Code: 409,
      Content: `机台已绑定网关${elsewhere.id}，请先解绑`,
    });
    expect(await ask(bindOf(first, serial))).toMatchObject({ Code: 200 });
    expect(await ask(bindOf(second, serial))).toMatchObject({
      Code: 409,
      Content: `PLC 127.0.0.1:502 站号1 已被机台${first}使用`,
    });
    expect(
      await ask(bindOf(second, serial, { plcIp: '192.168.1.2', iotIp: '192.168.1.2,10.0.0.2' })),
    ).toMatchObject({ Code: 409, Content: '网关IP不能与机台IP相同' });
    // Unbinding from a gateway the machine is not bound to.
    expect(await ask({ MsgType: 'unbind', snCode: second, iotId: serial })).toMatchObject({
      Code: 409,
      Content: '机台未绑定到该网关',
    });
  });

  it('answers the form’s Chinese messages with 400 and changes nothing', async () => {
    const serial = nextSerial();
    const sn = await make.createDevice({ line });
    const { ask } = await maintenance(serial);
    const cases: [unknown, string][] = [
      [bindOf('', serial), '请输入机台SN码'],
      // The one SN alphabet (contracts primitives.ts): a dot can never report data.
      [bindOf('TP.DOT.01', serial), 'SN码只能包含字母、数字、- 和 _'],
      [bindOf(sn, ''), '请输入网关序列号'],
      [bindOf(sn, 'ABCDEFGHIJKLM'), '网关序列号不能超过12位'],
      [bindOf(sn, serial, { plcIp: '192.168.1' }), '请输入正确IP，如：192.168.1.10'],
      [bindOf(sn, serial, { iotIp: '192.168.1.300,10.0.0.2' }), '请输入正确IP，如：192.168.1.2'],
      [bindOf(sn, serial, { iotIp: '192.168.1.2' }), '请输入正确IP，如：10.0.0.2'],
      [bindOf(sn, serial, { plcModel: '' }), '请选择PLC型号'],
      [bindOf(sn, serial, { plcPort: 0 }), '请输入正确端口（1-65535），如：502'],
      [bindOf(sn, serial, { plcPort: '5020x' }), '请输入正确端口（1-65535），如：502'],
      [bindOf(sn, serial, { unitId: 256 }), '请输入正确站号（0-255），如：1'],
      [{ MsgType: 'unbind', snCode: '', iotId: serial }, '请将数据填写完整'],
      [{ MsgType: 'unbind', snCode: sn, iotId: '' }, '请将数据填写完整'],
      [{ MsgType: 'unbind', snCode: sn, iotId: 'SHORT' }, '请输入正确的网关序列号'],
      // The path names one gateway, the message another.
      [{ MsgType: 'unbind', snCode: sn, iotId: 'OTHERGW00001' }, '请输入正确的网关序列号'],
    ];
    for (const [message, content] of cases)
      expect(await ask(message), content).toMatchObject({ Code: 400, Content: content });
    expect(server.linewatch.registry.get(sn)?.gatewayId).toBeNull();
  });

  it('refuses a socket without a session, a path without the suffix, and a foreign page', async () => {
    const anonymous = openSocket(server.wsUrl, maintenanceSocket.path(nextSerial()));
    expect((await anonymous.closed).code).toBe(4405);
    const bare = openSocket(server.wsUrl, '/ws/maintenance/GW0000000001', {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect((await bare.closed).code).toBe(4400);
    const foreign = openSocket(server.wsUrl, maintenanceSocket.path(nextSerial()), {
      headers: { [KEY_ID_HEADER]: keyId },
      origin: 'https://evil.example',
    });
    expect(await foreign.refused).toBe(403);
  });

  it('lists the PLC models from the profiles file shared with the agent', async () => {
    const reply = await api(server.baseUrl, keyId).get<PlcModelOption[]>(
      gatewaysApi.plcModels.path,
    );
    expect(reply.body.data).toContainEqual({
      label: '三菱 FX5U',
      value: 'FX5U',
      protocol: 'modbus',
      port: 502,
    });
    expect(reply.body.data.map((m) => [m.value, m.protocol, m.port])).toEqual([
      ['FX5U', 'modbus', 502],
      ['S7-1200', 'modbus', 502],
      ['NX1P2', 'modbus', 502],
      ['OPCUA-LW', 'opcua', 4840],
      ['S7-1200-S7', 's7', 102],
    ]);
  });
});
