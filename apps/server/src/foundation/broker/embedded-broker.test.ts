import { topicOf } from '@linewatch/contracts/mqtt';
import mqtt, { type MqttClient } from 'mqtt';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gatewayClientId, startEmbeddedBroker, type EmbeddedBroker } from './embedded-broker.ts';
import { packetSizeGuard } from './packet-size-guard.ts';

const secretOf = (id: string) => `secret-of-${id}`;
const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (let item = opened.pop(); item; item = opened.pop()) await item.close();
});

/** Gateways whose credential was rotated behind the broker's back (the admin CLI). */
const rotated = new Set<string>();
afterEach(() => rotated.clear());

/** What the broker warned about, as `message {fields}`. */
const warnings: string[] = [];
afterEach(() => {
  warnings.length = 0;
});

const startBroker = async (connectTimeoutMs: number, recheckMs?: number) => {
  const broker = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    log: {
      warn: (fields: object, message: string) =>
        warnings.push(`${message} ${JSON.stringify(fields)}`),
    },
    verifyGateway: async (id, password) => password === secretOf(id) && !rotated.has(id),
    connectTimeoutMs,
    ...(recheckMs !== undefined && { recheckMs }),
  });
  opened.push(broker);
  return broker;
};

const rawClient = (broker: EmbeddedBroker) => {
  const socket = connect(broker.port, '127.0.0.1');
  socket.on('error', () => undefined);
  opened.push({ close: () => socket.destroy() });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
};

/** The fixed header of a packet of `type` announcing `length` bytes to follow. */
const fixedHeader = (type: number, length: number) => {
  const bytes = [type << 4];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
};

const signIn = async (broker: EmbeddedBroker, id: string, clientId = gatewayClientId(id)) => {
  const client = await mqtt.connectAsync(broker.url, {
    clientId,
    username: id,
    password: secretOf(id),
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  opened.push({ close: () => client.endAsync(true) });
  return client;
};

describe('embedded broker, before sign-in', () => {
  // Three of these took the server from 923 to 1,370 MB: the parser buffered what they announced.
  it('drops a client announcing a 250 MB CONNECT', async () => {
    const broker = await startBroker(600_000);
    const { socket, closed } = rawClient(broker);
    socket.write(Buffer.concat([fixedHeader(1, 250 * 1024 * 1024), Buffer.alloc(1024, 0x41)]));
    await closed;
  });

  it('drops a client that connects and never sends CONNECT', async () => {
    const broker = await startBroker(300);
    const { closed } = rawClient(broker);
    await closed;
  });
});

describe('embedded broker, signed in', () => {
  it('drops a gateway announcing a packet above the telemetry maximum', async () => {
    const broker = await startBroker(600_000);
    const client = await signIn(broker, 'bigsender');
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    // Straight onto the socket: mqtt.js itself would send the whole 16 MB.
    (client.stream as Socket).write(fixedHeader(3, 16 * 1024 * 1024));
    await closed;
  });

  it('refuses a gateway signing in under another gateway’s client id', async () => {
    const broker = await startBroker(600_000);
    const victim = await signIn(broker, 'badgw2');
    let victimClosed = false;
    victim.on('close', () => (victimClosed = true));

    const impostor = mqtt.connectAsync(broker.url, {
      clientId: gatewayClientId('badgw2'),
      username: 'badgw1',
      password: secretOf('badgw1'),
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    await expect(impostor).rejects.toThrow(/identifier rejected/i);

    // The real badgw2 is still connected and served.
    const granted = await victim.subscribeAsync(topicOf('badgw2', 'ack'), { qos: 1 });
    expect(granted[0]?.qos).toBe(1);
    expect(victimClosed).toBe(false);
    expect(victim.connected).toBe(true);
    // Under its own id, badgw1 is welcome.
    const own: MqttClient = await signIn(broker, 'badgw1');
    expect(own.connected).toBe(true);
  });
});

describe('embedded broker, an MQTT 5 client', () => {
  it('is refused with 132 and a reason it can search for, and the server log names it', async () => {
    const broker = await startBroker(10_000);
    const attempt = mqtt.connectAsync(broker.url, {
      clientId: gatewayClientId('GWMQTTFIVE01'),
      username: 'GWMQTTFIVE01',
      password: secretOf('GWMQTTFIVE01'),
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
    await expect(attempt).rejects.toMatchObject({ code: 132 });
    expect(warnings.join('\n')).toMatch(
      /MQTT 5 is not supported, connect with protocol version 4 \(3\.1\.1\).*gw-GWMQTTFIVE01/,
    );

    // The CONNACK itself carries the reason (MQTT 5 reason string), for a client's own log.
    const { socket, closed } = rawClient(broker);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const id = Buffer.from('gw-raw');
    const variable = Buffer.concat([
      Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 5, 0x02, 0, 60, 0]),
      Buffer.from([0, id.length]),
      id,
    ]);
    socket.write(Buffer.concat([fixedHeader(1, variable.length), variable]));
    await closed;
    const connack = Buffer.concat(received);
    expect(connack[0]).toBe(0x20);
    expect(connack[3]).toBe(132);
    expect(connack.toString('utf8')).toContain('MQTT 5 is not supported');

    // The same client on 3.1.1 is welcome.
    expect((await signIn(broker, 'GWMQTTFIVE01')).connected).toBe(true);
  });
});

describe('embedded broker, a rotated credential', () => {
  const closed = (client: MqttClient) =>
    new Promise<void>((resolve) => client.once('close', () => resolve()));

  it('ends the gateway’s session at once when the server rotates it', async () => {
    const broker = await startBroker(10_000);
    const gateway = await signIn(broker, 'GWROTATE0001');
    const other = await signIn(broker, 'GWROTATE0002');
    const ended = closed(gateway);
    expect(broker.disconnectGateway('GWROTATE0001')).toBe(true);
    await ended;
    expect(other.connected).toBe(true);
    // Nothing left to end.
    expect(broker.disconnectGateway('GWROTATE0001')).toBe(false);
  });

  it('ends it at the next check when it was rotated elsewhere (the CLI)', async () => {
    const broker = await startBroker(10_000, 50);
    const gateway = await signIn(broker, 'GWROTATE0003');
    const other = await signIn(broker, 'GWROTATE0004');
    const ended = closed(gateway);
    rotated.add('GWROTATE0003');
    await ended;
    expect(other.connected).toBe(true);
  });
});

describe('packetSizeGuard', () => {
  it('follows packets split anywhere across chunks', () => {
    const fits = packetSizeGuard(() => 200);
    const stream = Buffer.concat([
      fixedHeader(3, 150),
      Buffer.alloc(150),
      fixedHeader(3, 200),
      Buffer.alloc(200),
      fixedHeader(12, 0),
    ]);
    for (let i = 0; i < stream.length; i += 7) expect(fits(stream.subarray(i, i + 7))).toBe(true);
    expect(fits(fixedHeader(3, 201))).toBe(false);
  });

  it('refuses a remaining length of more than four bytes', () => {
    expect(packetSizeGuard(() => Infinity)(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(
      false,
    );
  });
});

// The issue-27 contention bench at 100 gateways killed the embedded server with "Maximum call
// stack size exceeded": gateways slow to read their acks hold Aedes' 100 deliveries in flight,
// telemetry queues behind them, and once they drain, each queued message was delivered from the
// previous one's callback (ours called it at once), one stack frame deeper each time.
describe('the server side of the embedded broker under a backlog', () => {
  /**
   * The server's bus counting telemetry, and a gateway that stops reading with 300 large acks
   * sent to it: they fill its socket and wait for drain (100 of them once held Aedes in flight).
   */
  const withSlowGateway = async (id: string) => {
    const broker = await startBroker(10_000);
    const bus = broker.inProcessBus();
    const counted = { received: 0 };
    await bus.subscribe('telemetry', () => {
      counted.received += 1;
    });
    const slow = await signIn(broker, id);
    await slow.subscribeAsync(topicOf(id, 'ack'), { qos: 1 });
    const stream = slow.stream as Socket;
    stream.pause();
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 300; i++) bus.publish(topicOf(id, 'ack'), big);
    return { broker, bus, counted, stream };
  };

  it('takes every queued message once a slow gateway drains, however long the queue', async () => {
    const { bus, counted, stream } = await withSlowGateway('GWSLOW000001');
    const queued = 30_000;
    for (let seq = 1; seq <= queued; seq++)
      bus.publish(topicOf('GWSLOW000002', 'telemetry'), JSON.stringify({ seq, readings: [] }));
    stream.resume();
    await vi.waitFor(() => expect(counted.received).toBe(queued), { timeout: 30_000 });
  }, 60_000);

  it('hands a gateway its ack at once, and takes telemetry, while another does not read', async () => {
    const { broker, bus, counted, stream } = await withSlowGateway('GWSLOW000003');
    const fast = await signIn(broker, 'GWFAST000001');
    await fast.subscribeAsync(topicOf('GWFAST000001', 'ack'), { qos: 1 });
    const acks: string[] = [];
    fast.on('message', (_topic, payload) => acks.push(payload.toString()));
    for (let seq = 1; seq <= 5_000; seq++)
      bus.publish(topicOf('GWSLOW000004', 'telemetry'), JSON.stringify({ seq, readings: [] }));
    bus.publish(topicOf('GWFAST000001', 'ack'), JSON.stringify({ seq: 7, received: 9 }));
    await vi.waitFor(() => expect(acks).toEqual([JSON.stringify({ seq: 7, received: 9 })]), {
      timeout: 10_000,
    });
    // A gateway that stopped reading holds nothing of the server's: the telemetry is all taken.
    await vi.waitFor(() => expect(counted.received).toBe(5_000), { timeout: 30_000 });
    stream.resume();
  }, 60_000);
});

// Under ten CPU hogs the server read messages as fast as gateways sent them while its flush
// waited behind them (issue 27): a handler that asks to hold a message pauses that gateway.
describe('the server side of the embedded broker while ingest holds intake', () => {
  it('takes nothing more from gateways, their next PUBACK unsent, until the promise settles', async () => {
    const broker = await startBroker(10_000);
    const bus = broker.inProcessBus();
    let open = () => {};
    const room = new Promise<void>((resolve) => (open = resolve));
    const taken: string[] = [];
    await bus.subscribe('telemetry', (_topic, payload) => {
      taken.push(payload.toString());
      return room;
    });
    const gateway = await signIn(broker, 'GWHOLD000001');
    const topic = topicOf('GWHOLD000001', 'telemetry');
    await gateway.publishAsync(topic, '{"seq":1,"readings":[]}', { qos: 1 });
    await vi.waitFor(() => expect(taken).toHaveLength(1), { timeout: 10_000 });
    let pubacked = false;
    const second = gateway
      .publishAsync(topic, '{"seq":2,"readings":[]}', { qos: 1 })
      .then(() => (pubacked = true));
    // The broker has not read the second message: not handed over, not acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([taken.length, pubacked]).toEqual([1, false]);
    open();
    await second;
    await vi.waitFor(
      () => expect(taken).toEqual(['{"seq":1,"readings":[]}', '{"seq":2,"readings":[]}']),
      { timeout: 10_000 },
    );
  });
});
