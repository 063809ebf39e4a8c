/*
 * The broker alone, as bench/ingest measures it with --broker-only: this process stands where the
 * server would, as one more MQTT client with the server's connection settings (MQTT 5, Receive
 * Maximum 65,535, QoS 1), reads each message's seq and acknowledges every 100 ms, as a flush
 * does, with no other work. What it carries is the pipe the server's figure is compared with.
 */
import { serverSubscriptionOf, topicOf } from '@linewatch/contracts/mqtt';
import mqtt from 'mqtt';

// The server's own variables: MQTT_URL, and MQTT_USERNAME / MQTT_PASSWORD where the broker asks.
const { MQTT_URL: url, MQTT_USERNAME: username, MQTT_PASSWORD: password } = process.env;
if (!url) throw new Error('broker-echo.ts: set MQTT_URL');
const client = await mqtt.connectAsync(url, {
  clientId: `linewatch-echo-${process.pid}`,
  ...(username && { username }),
  ...(password && { password }),
  clean: true,
  protocolVersion: 5,
  properties: { receiveMaximum: 65_535 },
});
const highest = new Map<string, number>();
const due = new Set<string>();
client.on('message', (topic, payload) => {
  const gateway = topic.split('/')[3]!;
  const { seq } = JSON.parse(payload.toString('utf8')) as { seq: number };
  if (seq === (highest.get(gateway) ?? 0) + 1) {
    highest.set(gateway, seq);
    due.add(gateway);
  }
});
await client.subscribeAsync(serverSubscriptionOf('telemetry'), { qos: 1 });
setInterval(() => {
  for (const gateway of due)
    client.publish(topicOf(gateway, 'ack'), JSON.stringify({ seq: highest.get(gateway) }), {
      qos: 1,
    });
  due.clear();
}, 100);
console.log('echo ready');
