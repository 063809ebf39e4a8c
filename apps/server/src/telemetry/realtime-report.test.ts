import { sockets } from '@linewatch/contracts/telemetry-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { SOCKET_CLOSE, type RealtimePayload } from '@linewatch/contracts/socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway, reading, type GatewayClient } from '../test/gateway.ts';
import { login } from '../test/http.ts';
import { openSocket } from '../test/socket.ts';
import { factories, type TestLine } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let make: ReturnType<typeof factories>;
let line: TestLine;
let keyId: string;
let gateway: GatewayClient;
let sn: string;

beforeAll(async () => {
  server = await startTestServer();
  make = factories(server.linewatch);
  line = await make.createLine();
  const gw = await make.createGateway();
  sn = await make.createDevice({ line, gateway: gw });
  gateway = await connectGateway(server.mqttUrl, gw);
  const user = await make.createUser({ lines: [line] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);
});
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

const socketFor = (code: string) =>
  openSocket(server.wsUrl, sockets.realtime.path(code), { headers: { [KEY_ID_HEADER]: keyId } });

describe('real-time report', () => {
  it('names the active alarms of a machine in fault, and when its last reading was taken', async () => {
    const ts = Date.now() - 1_000;
    await gateway.telemetry(1, [
      {
        ...reading(sn, { produced: 10 }, { status: 3, ts }),
        alarms: [
          { code: 'E205', active: true },
          { code: 'E999', active: true },
          { code: 'E101', active: false },
        ],
      },
    ]);
    await gateway.waitForAck(1);
    const socket = socketFor(sn);
    try {
      const payload = await socket.waitForMessage<RealtimePayload>((m) => m.SN === sn);
      expect(payload.EquipmentStatus).toBe(3);
      expect(payload.updatedAt).toBe(ts);
      expect(payload.alarms).toEqual([
        { code: 'E205', description: '气压不足' },
        { code: 'E999', description: null },
      ]);

      // The fault clears: the alarms go with it.
      await gateway.telemetry(2, [reading(sn, { produced: 12 }, { status: 2 })]);
      const cleared = await socket.waitForMessage<RealtimePayload>((m) => m.EquipmentStatus === 2);
      expect(cleared.alarms).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('reads a message sent the moment the socket opens, while the session is still being checked', async () => {
    const socket = socketFor(sn);
    try {
      expect(await socket.opened).toBe(true);
      // A malformed request closes the socket with 4400: proof that the message was read, not
      // dropped because it arrived before the server listened.
      socket.send({ SN: sn, MsgType: 'machineFunction', machineFunctionName: 'nothing' });
      expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.badRequest });
    } finally {
      socket.close();
    }
  });

  it('closes with 4404 for an SN no machine has', async () => {
    const socket = socketFor('NO-SUCH-MACHINE');
    expect(await socket.closed).toMatchObject({ code: SOCKET_CLOSE.unknownMachine });
    expect(socket.messages).toEqual([]);
  });
});
