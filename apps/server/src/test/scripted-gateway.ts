import { ackMessage, topicOf } from '@linewatch/contracts/mqtt';
import mqtt, { type MqttClient } from 'mqtt';
import type { TestGateway } from './factories.ts';
import { waitFor } from './wait.ts';

export interface ScriptedMessage {
  kind: 'telemetry' | 'events';
  /** The message without its seq (the gateway numbers them 1, 2, … in this order). */
  body: Record<string, unknown>;
}

export interface ScriptedGateway {
  /** Highest seq the server has acknowledged. */
  readonly acked: number;
  /** Resend requests (acks with `next`) the gateway followed. */
  readonly resumes: number[];
  /** Resolves once every message of the script is acknowledged. */
  done(timeout?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A gateway written to the protocol, not our agent: it numbers its messages, keeps each until the
 * server acknowledges it, resends from where the server says (`next`) at once, and resends
 * everything unacknowledged after a reconnect or when acks stop for `ackTimeoutMs`. `intervalMs`
 * paces the script like a PLC's polls, so a test can act mid-stream.
 */
export const runScriptedGateway = async (
  mqttUrl: string,
  gateway: TestGateway,
  script: readonly ScriptedMessage[],
  { intervalMs = 0, ackTimeoutMs = 60_000 }: { intervalMs?: number; ackTimeoutMs?: number } = {},
): Promise<ScriptedGateway> => {
  const client: MqttClient = await mqtt.connectAsync(mqttUrl, {
    clientId: `gw-${gateway.id}`,
    username: gateway.id,
    password: gateway.secret,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 200,
    connectTimeout: 10_000,
  });
  let acked = 0;
  /** Next seq to publish, and how many of the script the "PLC" has produced so far. */
  let next = 1;
  let released = intervalMs > 0 ? 0 : script.length;
  let lastProgress = Date.now();
  const resumes: number[] = [];
  let closed = false;

  const publish = (seq: number) => {
    const message = script[seq - 1]!;
    client.publish(topicOf(gateway.id, message.kind), JSON.stringify({ seq, ...message.body }), {
      qos: 1,
    });
  };
  const pump = () => {
    if (!client.connected) return;
    while (next <= released) publish(next++);
  };
  client.on('message', (topic, payload) => {
    if (topic !== topicOf(gateway.id, 'ack')) return;
    const ack = ackMessage.parse(JSON.parse(payload.toString('utf8')));
    if (ack.seq > acked) {
      acked = ack.seq;
      lastProgress = Date.now();
    }
    if (ack.next !== undefined) {
      resumes.push(ack.next);
      next = Math.max(ack.next, acked + 1);
      lastProgress = Date.now();
      pump();
    }
  });
  client.on('connect', () => {
    // A new session: everything not acknowledged goes again, after the ack subscription.
    void client.subscribeAsync(topicOf(gateway.id, 'ack'), { qos: 1 }).then(() => {
      next = acked + 1;
      pump();
    });
  });
  await client.subscribeAsync(topicOf(gateway.id, 'ack'), { qos: 1 });
  pump();
  const ticker = setInterval(() => {
    if (released < script.length && intervalMs > 0) released++;
    if (acked < released && Date.now() - lastProgress > ackTimeoutMs) {
      next = acked + 1;
      lastProgress = Date.now();
    }
    pump();
  }, intervalMs || 100);

  return {
    get acked() {
      return acked;
    },
    resumes,
    done: (timeout = 60_000) =>
      waitFor(() => acked >= script.length, {
        timeout,
        what: `${gateway.id}'s ${script.length} messages acknowledged (at ${acked})`,
      }).then(() => undefined),
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(ticker);
      await client.endAsync(true);
    },
  };
};
