import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Aedes } from 'aedes';
import { connect } from 'mqtt';
import {
  eventsMessage,
  gatewayStateMessage,
  parseTopic,
  telemetryMessage,
  topicOf,
  type EventsMessage,
  type TelemetryMessage,
} from '@linewatch/contracts/mqtt';

/** Test helpers shared by the gateway's test files. */

const cleanups: (() => unknown)[] = [];

/** Registers teardown work; `runCleanups` (an afterEach) runs it newest first. */
export function onCleanup(fn: () => unknown): void {
  cleanups.push(fn);
}

export async function runCleanups(): Promise<void> {
  for (let fn = cleanups.pop(); fn; fn = cleanups.pop()) await fn();
}

export async function waitFor<T>(
  probe: () => T | undefined | null | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-gateway-'));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface TestBroker {
  broker: Aedes;
  port: number;
  url: string;
  /** Destroys a client's socket without a DISCONNECT, as a pulled cable would. */
  dropClient(clientId: string): void;
  close(): Promise<void>;
}

export async function startBroker(port = 0): Promise<TestBroker> {
  const broker = await Aedes.createBroker();
  const clients = new Map<string, { conn: { destroy(): void } }>();
  broker.on('client', (client) => clients.set(client.id, client));
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  let closed = false;
  const testBroker: TestBroker = {
    broker,
    port: actual,
    url: `mqtt://127.0.0.1:${actual}`,
    dropClient: (clientId) => clients.get(clientId)?.conn.destroy(),
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => broker.close(() => server.close(() => resolve())));
    },
  };
  onCleanup(() => testBroker.close());
  return testBroker;
}

type Received =
  { kind: 'telemetry'; message: TelemetryMessage } | { kind: 'events'; message: EventsMessage };

/**
 * Stands in for the server's ingest: accepts a gateway's messages strictly in seq order, ignores
 * duplicates, refuses anything past a gap and (with autoAck) acks its watermark.
 */
export class FakeIngest {
  /** Every valid message as it arrived, duplicates included. */
  readonly arrivals: Received[] = [];
  readonly accepted: Received[] = [];
  invalid = 0;
  refusedPastGap = 0;
  /** Messages skipped because the gateway's floor said they were dropped. */
  acceptedPastGap = 0;
  watermark = 0;
  private broker: Aedes | null = null;

  constructor(
    private readonly gatewayId: string,
    private readonly autoAck: boolean,
  ) {}

  attach(broker: Aedes): void {
    this.broker = broker;
    broker.on('publish', (packet) => {
      const topic = parseTopic(packet.topic);
      if (topic?.gatewayId !== this.gatewayId) return;
      // As the server: the online state is answered with where the stream stands
      // (docs/protocol.md, "On connection"); without autoAck, a server that never answers.
      if (topic.kind === 'state') {
        const state = gatewayStateMessage.safeParse(JSON.parse(packet.payload.toString()));
        if (this.autoAck && state.success && state.data.state === 'online')
          this.ack(this.watermark, this.watermark + 1);
        return;
      }
      if (topic.kind !== 'telemetry' && topic.kind !== 'events') return;
      const schema = topic.kind === 'telemetry' ? telemetryMessage : eventsMessage;
      const parsed = schema.safeParse(JSON.parse(packet.payload.toString()));
      if (!parsed.success) {
        this.invalid++;
        return;
      }
      const received = { kind: topic.kind, message: parsed.data } as Received;
      this.arrivals.push(received);
      const seq = received.message.seq;
      const floor = received.message.floor;
      // As the server: past a gap only where the gateway says the messages below are gone.
      if (seq === this.watermark + 1 || (seq > this.watermark + 1 && floor === seq)) {
        if (seq > this.watermark + 1) this.acceptedPastGap += seq - this.watermark - 1;
        this.accepted.push(received);
        this.watermark = seq;
      } else if (seq > this.watermark + 1) {
        this.refusedPastGap++;
      }
      if (this.autoAck && seq <= this.watermark) this.ack(this.watermark);
    });
  }

  ack(seq: number, next?: number): void {
    this.broker?.publish(
      {
        cmd: 'publish',
        topic: topicOf(this.gatewayId, 'ack'),
        payload: JSON.stringify(next === undefined ? { seq } : { seq, next }),
        qos: 1,
        retain: false,
        dup: false,
      },
      () => {},
    );
  }

  arrivedSeqs(): number[] {
    return this.arrivals.map((r) => r.message.seq);
  }
}

/** An MQTT client that records what it receives on the given topics. */
export async function subscriber(url: string, topics: string[]) {
  const client = connect(url, { reconnectPeriod: 0 });
  const messages: { topic: string; body: unknown; retain: boolean }[] = [];
  client.on('message', (topic, payload, packet) =>
    messages.push({ topic, body: JSON.parse(payload.toString()), retain: packet.retain }),
  );
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  onCleanup(() => client.endAsync(true));
  await client.subscribeAsync(topics, { qos: 1 });
  return { messages };
}
