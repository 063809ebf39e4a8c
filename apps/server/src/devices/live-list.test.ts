import { devicesApi } from '@linewatch/contracts/devices-api';
import {
  deviceMessages,
  type MachineListReply,
  type StatusSummary,
} from '@linewatch/contracts/devices';
import { messages } from '@linewatch/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway, reading, type GatewayClient } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { waitFor } from '../test/wait.ts';
import { factories, type TestLine } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const LIST = devicesApi.machineList.path;

let server: TestServer;
let line: TestLine;
let hiddenLine: TestLine;
let sns: string[];
let hiddenFault: string;
let gateway: GatewayClient;
let operator: ReturnType<typeof api>;
let admin: ReturnType<typeof api>;

/** One line of four machines: running, standing by, in fault, never heard from. */
beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  line = await make.createLine();
  hiddenLine = await make.createLine();
  const gw = await make.createGateway();
  sns = await make.createDevices(4, { line, gateway: gw });
  hiddenFault = await make.createDevice({ line: hiddenLine, gateway: gw });
  gateway = await connectGateway(server.mqttUrl, gw);
  await gateway.telemetry(1, [
    reading(sns[0]!, { produced: 10 }, { status: 2 }),
    reading(sns[1]!, { produced: 10 }, { status: 1 }),
    reading(sns[2]!, { produced: 10 }, { status: 3 }),
    reading(hiddenFault, { produced: 10 }, { status: 3 }),
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

const summary = async (client: ReturnType<typeof api>, query: Record<string, string> = {}) => {
  const reply = await client.get<StatusSummary>(devicesApi.statusSummary.path, query);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

const listSns = async (query: Record<string, string>) => {
  const reply = await operator.get<MachineListReply>(LIST, query);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data.data.map((m) => m.snCode);
};

describe('status summary', () => {
  it('counts what the user may see by live status', async () => {
    expect(await summary(operator)).toEqual({ running: 1, standBy: 1, error: 1, offLine: 1 });
    expect(await summary(operator, { produceLine: line.name })).toEqual({
      running: 1,
      standBy: 1,
      error: 1,
      offLine: 1,
    });
    // The admin also sees the hidden line's machine in fault.
    const all = await summary(admin, { produceLine: hiddenLine.name });
    expect(all).toEqual({ running: 0, standBy: 0, error: 1, offLine: 0 });
  });

  it('follows the live state as it changes', async () => {
    await gateway.telemetry(2, [reading(sns[1]!, { produced: 12 }, { status: 2 })]);
    await gateway.waitForAck(2);
    await waitFor(async () => (await summary(operator)).running === 2, {
      what: 'a second machine running',
    });
    await gateway.telemetry(3, [reading(sns[1]!, { produced: 12 }, { status: 1 })]);
    await gateway.waitForAck(3);
    await waitFor(async () => (await summary(operator)).standBy === 1, { what: 'back to standby' });
  });

  it('needs a session', async () => {
    const reply = await api(server.baseUrl).get(devicesApi.statusSummary.path);
    expect(reply.status).toBe(401);
    expect(reply.body.msg).toBe(messages.notSignedIn);
  });
});

describe('the list by live status', () => {
  it('filters to one status, as a tap on the summary asks', async () => {
    expect(await listSns({ deviceStatus: 'error' })).toEqual([sns[2]]);
    expect(await listSns({ deviceStatus: 'offLine' })).toEqual([sns[3]]);
    expect(await listSns({ deviceStatus: 'running' })).toEqual([sns[0]]);
    expect(await listSns({ deviceStatus: 'standBy', produceLine: line.name })).toEqual([sns[1]]);
  });

  it('puts machines in fault first within their line', async () => {
    expect(await listSns({ produceLine: line.name })).toEqual([sns[2], sns[0], sns[1], sns[3]]);
  });

  it('refuses a status that does not exist', async () => {
    const reply = await operator.get(LIST, { deviceStatus: 'broken' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: '0400', msg: deviceMessages.badStatus });
  });
});
