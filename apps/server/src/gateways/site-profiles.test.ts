import {
  maintenanceSocket,
  type MaintenanceReply,
  type PlcModelOption,
} from '@linewatch/contracts/gateways';
import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../foundation/config/config.ts';
import { runGatewayAgent } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { runSimulatedPlc } from '../test/plc-sim.ts';
import { openSocket } from '../test/socket.ts';
import { factories, type TestLine } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

/** A model no code here knows: its registers far from every built-in one, high word first. */
const SITE_PROFILES = {
  'SITE-KV8000': {
    label: '现场 基恩士 KV-8000',
    unitId: 3,
    wordOrder: 'high-first',
    status: { address: 1000, type: 'uint16' },
    idleReason: { address: 1001, type: 'uint16' },
    counters: {
      produced: { address: 1010, type: 'uint32' },
      ok: { address: 1012, type: 'uint32' },
      ng: { address: 1014, type: 'uint32' },
      firstPassOk: { address: 1016, type: 'uint32' },
    },
    alarmWords: { address: 1020, count: 1 },
    alarmCodes: ['E101', 'E205'],
    setpoints: [{ name: '速度设定', address: 1030, type: 'uint16' }],
  },
};

const dir = mkdtempSync(join(tmpdir(), 'lw-site-profiles-'));
const write = (name: string, content: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
};

describe('a PLC model added by configuration, not code', () => {
  const profiles = write('site-profiles.json', SITE_PROFILES);
  let server: TestServer;
  let keyId: string;
  let line: TestLine;

  beforeAll(async () => {
    server = await startTestServer({ PLC_PROFILES_FILE: profiles });
    line = await factories(server.linewatch).createLine();
    const user = await factories(server.linewatch).createUser({ lines: [line], isAdmin: true });
    keyId = await login(server.baseUrl, user.psnCode, user.password);
  });
  afterAll(() => server?.close());

  it('is offered on the phone, binds, and its machine reports through the agent', async () => {
    const make = factories(server.linewatch);
    const models = await api(server.baseUrl, keyId).get<PlcModelOption[]>(
      gatewaysApi.plcModels.path,
    );
    expect(models.body.data).toContainEqual({
      label: '现场 基恩士 KV-8000',
      value: 'SITE-KV8000',
      protocol: 'modbus',
      port: 502,
    });

    const gateway = await make.createGateway();
    const sn = await make.createDevice({ line });
    const plc = await runSimulatedPlc({ model: 'SITE-KV8000', profiles });
    const agent = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [{ ...gateway, machines: [] }],
      settings: { plcProfilesFile: profiles, modbusReconnectMs: 200 },
    });
    try {
      await waitFor(() => server.linewatch.presence.isOnline(gateway.id), {
        timeout: 30_000,
        what: 'the agent online',
      });
      const socket = openSocket(server.wsUrl, maintenanceSocket.path(gateway.id), {
        headers: { [KEY_ID_HEADER]: keyId },
      });
      expect(await socket.opened).toBe(true);
      socket.send({
        MsgType: 'bind',
        snCode: sn,
        iotId: gateway.id,
        plcIp: '127.0.0.1',
        plcPort: plc.port,
        iotIp: '192.168.1.2,10.0.0.2',
        plcModel: 'SITE-KV8000',
      });
      await waitFor(() => socket.messages.length > 0, { what: 'the bind reply' });
      expect(socket.messages[0] as MaintenanceReply).toMatchObject({ Code: 200 });
      socket.close();
      // The model's own unit id (3) and registers, read by the agent from plc-sim's model.
      await waitFor(
        async () => {
          const reply = await api(server.baseUrl, keyId).get<MachineListReply>(
            devicesApi.machineList.path,
            { nameTag: sn },
          );
          const card = reply.body.data.data.find((d) => d.snCode === sn);
          return card && card.iot === 1 && card.produceNumber > 0;
        },
        { timeout: 30_000, what: 'the machine producing in the list' },
      );
      expect(server.linewatch.registry.get(sn)?.gatewayId).toBe(gateway.id);
    } finally {
      await agent.dispose();
      await plc.stop();
    }
  });

  it('refuses a bad profiles file at start with what is wrong and where', () => {
    const base = { DEMO: '1', PORT: '0' };
    const tooWide = structuredClone(SITE_PROFILES)['SITE-KV8000'];
    tooWide.setpoints[0]!.address = 1200;
    const cases: [string, unknown, string][] = [
      ['wide.json', { WIDE: tooWide }, 'span 201 words; one read takes at most 125'],
      [
        'bad-field.json',
        { BAD: { ...SITE_PROFILES['SITE-KV8000'], wordOrder: 'middle' } },
        'BAD.wordOrder',
      ],
      ['built-in.json', { FX5U: SITE_PROFILES['SITE-KV8000'] }, 'FX5U is a built-in model'],
    ];
    for (const [name, content, says] of cases) {
      const file = write(name, content);
      expect(() => loadConfig({ ...base, PLC_PROFILES_FILE: file }), name).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, PLC_PROFILES_FILE: file }), name).toThrow(says);
    }
    expect(() => loadConfig({ ...base, PLC_PROFILES_FILE: join(dir, 'missing.json') })).toThrow(
      /PLC_PROFILES_FILE PLC profiles .*missing\.json: cannot read/,
    );
  });
});
