import { serverSubscriptions, topicOf } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { Bus, MessageHandler } from './bus.ts';

export interface BusOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  log: FastifyBaseLogger;
  onMessage: MessageHandler;
}

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
  });
  client.on('message', options.onMessage);
  client.on('error', (error) => options.log.error({ err: error }, 'MQTT client error'));
  client.on('offline', () => options.log.warn('MQTT broker unreachable; reconnecting'));
  client.on('connect', () => options.log.info('MQTT connected'));
  await client.subscribeAsync(Object.values(serverSubscriptions), { qos: 1 });
  let intakeStopped = false;

  return {
    get connected() {
      return client.connected;
    },
    publishAck(gatewayId: string, seq: number) {
      if (!client.connected) return; // the gateway resends and gets its ack after the reconnect
      client.publish(topicOf(gatewayId, 'ack'), JSON.stringify({ seq }), { qos: 1 });
    },
    async stopIntake() {
      if (intakeStopped) return;
      intakeStopped = true;
      client.removeListener('message', options.onMessage);
      if (client.connected)
        await client.unsubscribeAsync(Object.values(serverSubscriptions)).catch(() => undefined);
    },
    close: () => client.endAsync(),
  };
};
