import { createServer, connect, type Socket } from 'node:net';

interface TappedPublish {
  topic: string;
  payload: Buffer;
}

/**
 * Splits a byte stream into MQTT control packets: a fixed-header byte, the "remaining length"
 * (1–4 bytes, 7 bits each, low first) and that many bytes.
 */
const packetSplitter = (onPacket: (packet: Buffer) => void) => {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      let length = 0;
      let multiplier = 1;
      let offset = 1;
      let complete = false;
      while (offset < pending.length && offset <= 4) {
        const byte = pending[offset++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || pending.length < offset + length) return;
      onPacket(pending.subarray(0, offset + length));
      pending = pending.subarray(offset + length);
    }
  };
};

/** The topic and payload of an MQTT 3.1.1 PUBLISH packet; null for any other packet. */
const publishOf = (packet: Buffer): TappedPublish | null => {
  if (packet[0]! >> 4 !== 3) return null;
  const qos = (packet[0]! >> 1) & 3;
  let offset = 1;
  while (packet[offset++]! & 0x80);
  const topicLength = packet.readUInt16BE(offset);
  const topic = packet.toString('utf8', offset + 2, offset + 2 + topicLength);
  offset += 2 + topicLength + (qos > 0 ? 2 : 0);
  return { topic, payload: packet.subarray(offset) };
};

/**
 * A TCP relay in front of an MQTT broker that records every message a client publishes (uplink)
 * and every message delivered to it (downlink), as seen on the wire. It sees what no subscriber
 * may (the embedded broker's ACL keeps test clients off gateway topics) and exactly what the
 * gateway was told. It can also withhold a client's publications, as a link that stopped
 * carrying them would; withheld packets are dropped, never forwarded later. MQTT 3.1.1 only,
 * which is what the gateway agent speaks.
 */
export const startMqttTap = async (upstream: { host: string; port: number }) => {
  const uplink: TappedPublish[] = [];
  const downlink: TappedPublish[] = [];
  let withhold: ((topic: string, payload: Buffer) => boolean) | null = null;
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const broker = connect(upstream);
    sockets.add(client).add(broker);
    const closeBoth = () => {
      client.destroy();
      broker.destroy();
      sockets.delete(client);
      sockets.delete(broker);
    };
    client.on(
      'data',
      packetSplitter((packet) => {
        const publish = publishOf(packet);
        if (publish && withhold?.(publish.topic, publish.payload)) return;
        if (publish) uplink.push(publish);
        broker.write(packet);
      }),
    );
    broker.on(
      'data',
      packetSplitter((packet) => {
        const publish = publishOf(packet);
        if (publish) downlink.push(publish);
        client.write(packet);
      }),
    );
    for (const socket of [client, broker]) {
      socket.on('error', closeBoth);
      socket.on('close', closeBoth);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `mqtt://127.0.0.1:${port}`,
    uplink,
    downlink,
    /** From now on, drop (never forward) the client publications the predicate matches. */
    withhold: (predicate: (topic: string, payload: Buffer) => boolean) => {
      withhold = predicate;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};

export type MqttTap = Awaited<ReturnType<typeof startMqttTap>>;
