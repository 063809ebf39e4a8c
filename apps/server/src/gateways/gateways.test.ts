import { telemetryApi } from '@linewatch/contracts/telemetry-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineCard, MachineListReply } from '@linewatch/contracts/devices';
import type { GatewayCommand } from '@linewatch/contracts/gateway-commands';
import { topicOf } from '@linewatch/contracts/mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectGateway,
  reading,
  runGatewayAgent,
  type AgentProcess,
  type GatewayClient,
} from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { waitFor } from '../test/wait.ts';
import { factories, type TestGateway } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { GatewayNoReplyError } from './commands.ts';

const LIST = devicesApi.machineList.path;

const cleanups: (() => Promise<unknown>)[] = [];
const track = <T extends AgentProcess | GatewayClient>(resource: T): T => {
  cleanups.push(() => ('dispose' in resource ? resource.dispose() : resource.close()));
  return resource;
};
afterEach(async () => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step();
});

/** Gateways A and B, each with one machine, that a previous run left marked online. */
interface Seeded {
  a: TestGateway;
  b: TestGateway;
  snA: string;
  snB: string;
  admin: { psnCode: string; password: string };
}

describe('gateway presence after a start', () => {
  let server: TestServer;
  let seeded: Seeded;
  let keyId: string;

  beforeAll(async () => {
    server = await startTestServer(
      {},
      {
        seed: async (db) => {
          const make = factories(db);
          const line = await make.createLine();
          const a = await make.createGateway();
          const b = await make.createGateway();
          const snA = await make.createDevice({ line, gateway: a });
          const snB = await make.createDevice({ line, gateway: b });
          const admin = await make.createUser({ isAdmin: true });
          // What a server killed with gateways connected leaves behind (issue 6, section 5).
          await db.updateTable('gateways').set({ online: true }).execute();
          seeded = { a, b, snA, snB, admin };
        },
      },
    );
    keyId = await login(server.baseUrl, seeded.admin.psnCode, seeded.admin.password);
  });
  afterAll(() => server?.close());

  const iot = async (sn: string) => {
    const reply = await api(server.baseUrl, keyId).get<MachineListReply>(LIST, { nameTag: sn });
    return reply.body.data.data.find((d: MachineCard) => d.snCode === sn)?.iot;
  };

  it('does not report a gateway online from the database, only once it speaks', async () => {
    expect(await iot(seeded.snA)).toBe(2);
    expect(await iot(seeded.snB)).toBe(2);
    expect(server.linewatch.presence.isOnline(seeded.a.id)).toBe(false);

    // A connects and announces itself (retained state, as the agent does on every connection).
    const a = track(await connectGateway(server.mqttUrl, seeded.a));
    await a.publish('state', { state: 'online', ts: Date.now() });
    await waitFor(async () => (await iot(seeded.snA)) === 1, { what: 'A online' });

    // B says nothing about its state but sends telemetry: speaking is enough.
    const b = track(await connectGateway(server.mqttUrl, seeded.b));
    await b.telemetry(1, [reading(seeded.snB, { produced: 10 })]);
    await waitFor(async () => (await iot(seeded.snB)) === 1, { what: 'B online' });

    // Its last will (or a clean offline) takes it back to offline.
    await a.publish('state', { state: 'offline', ts: Date.now() });
    await waitFor(async () => (await iot(seeded.snA)) === 2, { what: 'A offline' });
  });
});

describe('commands to a gateway', () => {
  let server: TestServer;
  let make: ReturnType<typeof factories>;

  beforeAll(async () => {
    server = await startTestServer();
    make = factories(server.linewatch);
  });
  afterAll(() => server?.close());

  /** A gateway client that records the commands it receives and does not answer by itself. */
  const listeningGateway = async () => {
    const gateway = await make.createGateway();
    const client = track(await connectGateway(server.mqttUrl, gateway));
    const received: GatewayCommand[] = [];
    client.client.on('message', (topic, payload) => {
      if (topic === topicOf(gateway.id, 'cmd'))
        received.push(JSON.parse(payload.toString('utf8')) as GatewayCommand);
    });
    await client.client.subscribeAsync(topicOf(gateway.id, 'cmd'), { qos: 1 });
    return { gateway, client, received };
  };

  it('pings a real agent through the broker and gets 200 with its correlation id', async () => {
    const gateway = await make.createGateway();
    const sn = `SN-CMD-${gateway.id}`;
    await make.createDevice({ line: await make.createLine(), gateway, sn });
    track(
      runGatewayAgent({ mqttUrl: server.mqttUrl, gateways: [{ ...gateway, machines: [{ sn }] }] }),
    );
    await waitFor(() => server.linewatch.presence.isOnline(gateway.id), {
      timeout: 30_000,
      what: 'the agent online',
    });

    const before = server.linewatch.commands.counters.replied;
    const reply = await server.linewatch.commands.send(gateway.id, { type: 'ping' });
    expect(reply).toMatchObject({ code: 200, content: '网关在线' });
    expect(server.linewatch.commands.counters.replied).toBe(before + 1);

    const bind = await server.linewatch.commands.send(gateway.id, {
      type: 'bind',
      snCode: sn,
      plcIp: '192.168.1.10',
      iotIp: '192.168.1.2,10.0.0.2',
      plcModel: 'NO-SUCH-MODEL',
    });
    // The agent carries bind out itself (maintenance.test.ts); a model it has no profile for it refuses.
    expect(bind).toMatchObject({ code: 400, content: '网关不支持此PLC型号' });
  });

  it('rejects with a timeout error when the gateway is offline, and drops the late reply', async () => {
    const offline = await make.createGateway();
    const counters = server.linewatch.commands.counters;
    const timedOut = counters.timedOut;
    const error: unknown = await server.linewatch.commands
      .send(offline.id, { type: 'ping' }, 200)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayNoReplyError);
    expect(error).toMatchObject({ gatewayId: offline.id, command: 'ping', reason: 'timeout' });
    expect(counters.timedOut).toBe(timedOut + 1);

    // A gateway that hears the command but answers after the wait is over.
    const { gateway, client, received } = await listeningGateway();
    const late = await server.linewatch.commands
      .send(gateway.id, { type: 'ping' }, 200)
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(GatewayNoReplyError);
    const command = await waitFor(() => received[0], { what: 'the command' });
    const unmatched = counters.unmatchedReplies;
    await client.publish('cmd/reply', {
      correlationId: command.correlationId,
      code: 200,
      content: '网关在线',
    });
    await waitFor(() => counters.unmatchedReplies === unmatched + 1, { what: 'the late reply' });
  });

  it('ignores replies with an unknown correlation id, from another gateway or malformed', async () => {
    const { gateway, client, received } = await listeningGateway();
    const other = track(await connectGateway(server.mqttUrl, await make.createGateway()));
    const counters = server.linewatch.commands.counters;
    const { unmatchedReplies, malformedReplies } = counters;

    const pending = server.linewatch.commands.send(gateway.id, { type: 'ping' });
    const command = await waitFor(() => received[0], { what: 'the command' });
    expect(command).toMatchObject({ type: 'ping', correlationId: expect.any(String) as unknown });

    await client.publish('cmd/reply', {
      correlationId: 'unknown-00000000',
      code: 500,
      content: 'x',
    });
    // The right correlation id, but from a gateway the command did not go to.
    await other.publish('cmd/reply', {
      correlationId: command.correlationId,
      code: 500,
      content: 'x',
    });
    await client.publish('cmd/reply', 'not json');
    await client.publish('cmd/reply', { correlationId: command.correlationId, code: 'ok' });
    await client.publish('cmd/reply', {
      correlationId: command.correlationId,
      code: 200,
      content: '网关在线',
    });

    expect(await pending).toEqual({
      correlationId: command.correlationId,
      code: 200,
      content: '网关在线',
    });
    expect(counters.malformedReplies).toBe(malformedReplies + 2);
    // The other gateway's reply travels on its own connection: it may arrive after.
    await waitFor(() => counters.unmatchedReplies === unmatchedReplies + 2, {
      what: 'both unmatched replies dropped',
    });
    // Operators see them on the health endpoint.
    const health = await api(server.baseUrl).get<{ gatewayCommands: object }>(
      telemetryApi.health.path,
    );
    expect(health.body.data.gatewayCommands).toMatchObject({
      unmatchedReplies: unmatchedReplies + 2,
      malformedReplies: malformedReplies + 2,
    });
  });
});
