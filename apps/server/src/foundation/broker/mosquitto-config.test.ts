import { topicOf } from '@linewatch/contracts/mqtt';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_USER,
  startDeployMosquitto,
  type DeployMosquitto,
} from '../../test/deploy-mosquitto.ts';
import { waitFor } from '../../test/wait.ts';

// The broker configuration docs/deploy.md hands to operators, run in the machine's own Mosquitto:
// only the paths and ports differ from the repository's files (test/deploy-mosquitto.ts).

const gatewayA = { id: 'GWTESTAAAAAA', secret: 'secret-of-gateway-a' };
const gatewayB = { id: 'GWTESTBBBBBB', secret: 'secret-of-gateway-b' };
const serverSecret = 'secret-of-the-servers';

let broker: DeployMosquitto;
let gatewayPort: number;
let serverPort: number;
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await startDeployMosquitto({ gateways: [gatewayA, gatewayB], serverSecret });
  ({ gatewayPort, serverPort } = broker);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
  await broker?.stop();
});

const connect = async (port: number, options: IClientOptions) => {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    ...options,
  });
  clients.push(client);
  return client;
};

/** As the agent connects: its own client id `gw-<serial>`, MQTT 3.1.1. */
const asGateway = (gateway: typeof gatewayA, clientId = `gw-${gateway.id}`) =>
  connect(gatewayPort, {
    clientId,
    username: gateway.id,
    password: gateway.secret,
    protocolVersion: 4,
  });

/** As every server instance connects: the one server user, a client id of its own, MQTT 5. */
const asServer = (instance: string) =>
  connect(serverPort, {
    clientId: `linewatch-server-${instance}`,
    username: SERVER_USER,
    password: serverSecret,
    protocolVersion: 5,
  });

/** The messages a client receives, in order, as `topic payload`. */
const inbox = (client: MqttClient) => {
  const received: string[] = [];
  client.on('message', (topic, payload) => received.push(`${topic} ${payload.toString()}`));
  return received;
};

const closedFlag = (client: MqttClient) => {
  const state = { closed: false };
  client.on('close', () => (state.closed = true));
  return state;
};

/** A QoS 1 round trip on the client's own topic completes: its session is still served. */
const stillServed = (client: MqttClient) =>
  new Promise<void>((resolve, reject) => {
    if (!client.connected) return reject(new Error('the client was disconnected'));
    client.once('close', () => reject(new Error('the client was disconnected')));
    client.publish(topicOf(String(client.options.username), 'state'), '{}', { qos: 1 }, (error) =>
      error ? reject(error) : resolve(),
    );
  });

describe('deploy/mosquitto in Mosquitto 2.0', () => {
  it("keeps a gateway connected when another gateway's credential asks for its client id", async () => {
    const a = await asGateway(gatewayA);
    const aState = closedFlag(a);
    const b = await asGateway(gatewayB, `gw-${gatewayA.id}`);
    const bState = closedFlag(b);
    await stillServed(a);
    // Control: the broker does end a session that is taken over (B's own credential again), so a
    // takeover of A would have been seen above.
    await asGateway(gatewayB);
    await waitFor(() => bState.closed, { what: "gateway B's earlier session to be closed" });
    expect(aState.closed).toBe(false);
    // What the broker says when a session is taken over: about B's own id, never about A's.
    expect(broker.log()).toMatch(new RegExp(`Client \\S*${gatewayB.id} already connected`));
    expect(broker.log()).not.toMatch(new RegExp(`Client \\S*${gatewayA.id} already connected`));
  });

  it("lets a gateway publish on its own topics only, as the servers' user reads them", async () => {
    const server = await asServer('a');
    const heard = inbox(server);
    await server.subscribeAsync('lw/v1/gw/+/telemetry', { qos: 1 });
    const b = await asGateway(gatewayB);
    await b.publishAsync(topicOf(gatewayA.id, 'telemetry'), 'forged', { qos: 1 });
    await b.publishAsync(topicOf(gatewayB.id, 'telemetry'), 'own', { qos: 1 });
    // One publisher, one subscriber: the forged message would have come first.
    await waitFor(() => heard.length > 0, { what: "B's own telemetry at the server" });
    expect(heard).toEqual([`${topicOf(gatewayB.id, 'telemetry')} own`]);
  });

  it("lets a gateway read its own acks only; the servers' user writes and reads them", async () => {
    const a = await asGateway(gatewayA);
    const b = await asGateway(gatewayB);
    const [heardA, heardB] = [inbox(a), inbox(b)];
    await a.subscribeAsync(topicOf(gatewayA.id, 'ack'), { qos: 1 });
    await b.subscribeAsync([topicOf(gatewayA.id, 'ack'), topicOf(gatewayB.id, 'ack')], { qos: 1 });
    const server = await asServer('b');
    const heardServer = inbox(server);
    await server.subscribeAsync('lw/v1/gw/+/ack', { qos: 1 });
    await server.publishAsync(topicOf(gatewayA.id, 'ack'), '{"seq":1}', { qos: 1 });
    await server.publishAsync(topicOf(gatewayB.id, 'ack'), '{"seq":2}', { qos: 1 });
    await waitFor(() => heardB.length > 0 && heardA.length > 0 && heardServer.length > 1, {
      what: 'the acks delivered',
    });
    expect(heardA).toEqual([`${topicOf(gatewayA.id, 'ack')} {"seq":1}`]);
    // Published after A's ack by the same client: had B been let read A's, it would be first.
    expect(heardB).toEqual([`${topicOf(gatewayB.id, 'ack')} {"seq":2}`]);
    expect(heardServer).toEqual([
      `${topicOf(gatewayA.id, 'ack')} {"seq":1}`,
      `${topicOf(gatewayB.id, 'ack')} {"seq":2}`,
    ]);
  });

  it('gives two server instances with one user a session each, and no gateway a seat there', async () => {
    const first = await asServer('c');
    const firstState = closedFlag(first);
    const second = await asServer('d');
    await second.publishAsync(topicOf(gatewayA.id, 'cmd'), '{}', { qos: 1 });
    await first.publishAsync(topicOf(gatewayA.id, 'cmd'), '{}', { qos: 1 });
    expect(firstState.closed).toBe(false);
    await expect(
      connect(serverPort, { username: gatewayA.id, password: gatewayA.secret }),
    ).rejects.toThrow(/not authori[sz]ed/i);
  });
});
