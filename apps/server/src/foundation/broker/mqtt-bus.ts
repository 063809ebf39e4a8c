import { serverSubscriptionOf } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { Subscribers, type Bus } from './bus.ts';

export interface BusOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  log: FastifyBaseLogger;
}

const WRITES_PER_BATCH = 64;

/** The bus through an external broker (MQTT_URL): the server is one more MQTT client. */
export const connectBus = async (options: BusOptions): Promise<Bus> => {
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    clientId: `linewatch-server-${randomBytes(4).toString('hex')}`,
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
    clean: true,
    // MQTT 5: the broker keeps as many messages in flight to us as our Receive Maximum allows;
    // on 3.1.1 Mosquitto allows 20 (max_inflight_messages) and queues, then drops, the rest.
    protocolVersion: 5,
    properties: { receiveMaximum: 65_535 },
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // mqtt.js traces every packet through `debug`, whose enabled-check alone was 2 % of the main
    // thread at 17K messages/s (docs/benchmarks.md); the server logs what matters itself.
    log: () => undefined,
  });
  // mqtt.js handles one incoming packet per tick, and mqtt-packet uncorks after each packet it
  // writes: every PUBACK (one per message at QoS 1) was a write of its own, 13 % of the main
  // thread at 27K messages/s through Mosquitto (docs/benchmarks.md). Corked until the packets of
  // this turn of the event loop are handled, they leave in one write.
  const corked = new WeakSet<object>();
  const batchWrites = () => {
    const stream = client.stream;
    if (corked.has(stream)) return;
    corked.add(stream);
    let batched = 0;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const flush = () => {
      if (batched === 0) return;
      batched = 0;
      stream.uncork();
    };
    stream.write = ((...args: unknown[]) => {
      if (batched === 0) {
        stream.cork();
        setImmediate(flush);
      }
      const result = write(...args);
      // A broker whose in-flight window to us is full sends the next message only on a PUBACK:
      // a batch is kept short.
      if (++batched >= WRITES_PER_BATCH) flush();
      return result;
    }) as typeof stream.write;
  };
  batchWrites();
  client.on('connect', batchWrites);
  const subscribers = new Subscribers();
  const onMessage = (topic: string, payload: Buffer) => subscribers.dispatch(topic, payload);
  client.on('message', onMessage);
  client.on('error', (error) => options.log.error({ err: error }, 'MQTT client error'));
  client.on('offline', () => options.log.warn('MQTT broker unreachable; reconnecting'));
  client.on('connect', () => options.log.info('MQTT connected'));
  let intakeStopped = false;

  return {
    get connected() {
      return client.connected;
    },
    async subscribe(kind, handler) {
      if (intakeStopped) return;
      if (subscribers.add(kind, handler))
        await client.subscribeAsync(serverSubscriptionOf(kind), { qos: 1 });
    },
    publish(topic, payload) {
      if (!client.connected) return false;
      client.publish(topic, payload, { qos: 1 });
      return true;
    },
    async stopIntake() {
      if (intakeStopped) return;
      intakeStopped = true;
      client.removeListener('message', onMessage);
      const topics = subscribers.kinds.map(serverSubscriptionOf);
      if (client.connected && topics.length > 0)
        await client.unsubscribeAsync(topics).catch(() => undefined);
    },
    close: () => client.endAsync(),
  };
};
