import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineCard, MachineListReply } from '@linewatch/contracts/devices';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayAgent } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { runSimulatedPlc, type PlcProcess } from '../test/plc-sim.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

// The agent reads an OPC UA PLC (node-opcua's server) and a Siemens S7 PLC (snap7's server),
// each a plc-sim process, and their figures reach the server over MQTT and the phone's list.
// node-snap7 is a native module: where it did not build, plc-sim says so and this fails.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step();
});

describe('OPC UA and S7 machines', () => {
  let server: TestServer;
  let keyId: string;
  let make: ReturnType<typeof factories>;
  let line: Awaited<ReturnType<ReturnType<typeof factories>['createLine']>>;

  beforeAll(async () => {
    server = await startTestServer();
    make = factories(server.linewatch);
    line = await make.createLine();
    const user = await make.createUser({ lines: [line] });
    keyId = await login(server.baseUrl, user.psnCode, user.password);
  });
  afterAll(() => server?.close());

  const card = async (sn: string) => {
    const reply = await api(server.baseUrl, keyId).get<MachineListReply>(
      devicesApi.machineList.path,
      { nameTag: sn },
    );
    return reply.body.data.data.find((d: MachineCard) => d.snCode === sn);
  };

  const plc = async (model: string, sn: string, port = 0): Promise<PlcProcess> => {
    const started = await runSimulatedPlc({ model, sn, port });
    cleanups.push(() => started.stop());
    return started;
  };

  it('reach the phone, and are read again after their PLCs restart', async () => {
    const gateway = await make.createGateway();
    const [opcuaSn, s7Sn] = await make.createDevices(2, { line, gateway, ppmTarget: 120 });
    const [ua, s7] = await Promise.all([plc('OPCUA-LW', opcuaSn!), plc('S7-1200-S7', s7Sn!)]);
    const agent = runGatewayAgent({
      mqttUrl: server.mqttUrl,
      gateways: [
        {
          ...gateway,
          machines: [
            {
              sn: opcuaSn!,
              driver: 'opcua',
              plcIp: '127.0.0.1',
              port: ua.port,
              plcModel: 'OPCUA-LW',
            },
            { sn: s7Sn!, driver: 's7', plcIp: '127.0.0.1', port: s7.port, plcModel: 'S7-1200-S7' },
          ],
        },
      ],
      settings: { opcuaReconnectMs: 300, opcuaPublishingIntervalMs: 100, s7ReconnectMs: 200 },
    });
    cleanups.push(() => agent.dispose());

    for (const producing of await Promise.all(
      [opcuaSn!, s7Sn!].map((sn) =>
        waitFor(
          async () => {
            const c = await card(sn);
            return c && c.iot === 1 && c.produceNumber > 0 && c;
          },
          { timeout: 30_000, what: `${sn} producing in the list` },
        ),
      ),
    ))
      expect(producing.deviceStatus).not.toBe('offLine');

    // Both PLCs go away and come back on the same ports.
    await Promise.all([ua.stop(), s7.stop()]);
    const restartedAt = Date.now();
    await Promise.all([plc('OPCUA-LW', opcuaSn!, ua.port), plc('S7-1200-S7', s7Sn!, s7.port)]);
    await Promise.all(
      [opcuaSn!, s7Sn!].map((sn) =>
        waitFor(() => (server.linewatch.live.get(sn)?.snapshot?.ts ?? 0) > restartedAt, {
          timeout: 30_000,
          what: `a reading of ${sn} after its PLC restarted`,
        }),
      ),
    );
    expect(agent.stderr()).toMatch(new RegExp(`machine ${s7Sn} unreadable: S7`));
  });
});
