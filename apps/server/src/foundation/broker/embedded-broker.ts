import { MQTT_MAX_CONNECT_BYTES, MQTT_MAX_PACKET_BYTES } from '@linewatch/contracts/limits';
import { parseTopic, serverSubscriptionOf, type InboundKind } from '@linewatch/contracts/mqtt';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { createServer, type Server, type Socket } from 'node:net';
import { Subscribers, type Bus } from './bus.ts';
import { guardPacketSize } from './packet-size-guard.ts';

export class BrokerPortInUseError extends Error {}

type Principal = { kind: 'gateway'; id: string };

export interface EmbeddedBrokerOptions {
  port: number;
  /** Where to listen (MQTT_HOST); all interfaces by default. */
  host?: string;
  verifyGateway: (gatewayId: string, password: string) => Promise<boolean>;
  /** A connection whose CONNECT has not arrived by then is closed. */
  connectTimeoutMs?: number;
  /**
   * How often every connected gateway's credential is checked again: a credential rotated where
   * the server cannot see it (the admin CLI against PostgreSQL) ends the old session within this.
   */
  recheckMs?: number;
  /** Where a client refused before sign-in is named (pino's shape: fields, then the message). */
  log?: { warn(fields: object, message: string): void };
}

/** Messages the server takes from a queue in the broker before it lets other work run. */
const YIELD_EVERY = 500;

/** The MQTT client id a gateway must use: the agent's, and one no other gateway can take. */
export const gatewayClientId = (gatewayId: string) => `gw-${gatewayId}`;

const GATEWAY_PUBLISHES = new Set(['telemetry', 'events', 'state', 'cmd/reply']);
const GATEWAY_SUBSCRIBES = new Set(['ack', 'cmd']);

const authError = (): AuthenticateError =>
  Object.assign(new Error('bad username or password'), { returnCode: 4 as const });
const identifierError = (): AuthenticateError =>
  Object.assign(new Error('client id is not the gateway’s own'), { returnCode: 2 as const });

/** What an MQTT 5 client is told, in its CONNACK and in the server log (docs/protocol.md). */
export const MQTT5_REFUSED = 'MQTT 5 is not supported, connect with protocol version 4 (3.1.1)';

/**
 * An MQTT 5 CONNACK: reason 132 (unsupported protocol version) with a reason string. Aedes
 * speaks 3.1.1 only and would answer in 3.1.1's format, which an MQTT 5 client reads as a bare
 * code with no text to search for.
 */
const mqtt5Refusal = (): Buffer => {
  const reason = Buffer.from(MQTT5_REFUSED, 'utf8');
  const property = Buffer.concat([
    Buffer.from([0x1f, reason.length >> 8, reason.length & 0xff]),
    reason,
  ]);
  // Property length and remaining length stay under 128: one byte each.
  const body = Buffer.concat([Buffer.from([0x00, 132, property.length]), property]);
  return Buffer.concat([Buffer.from([0x20, body.length]), body]);
};

/**
 * The in-process MQTT broker (Aedes) of the embedded setup. Gateways sign in with their id and
 * secret and may publish and subscribe only under their own topics (docs/design.md section 6).
 */
export const startEmbeddedBroker = async (options: EmbeddedBrokerOptions) => {
  const principals = new WeakMap<Client, Principal>();
  /**
   * While set, the server asked to hold intake (bus.ts, MessageHandler): gateways' new telemetry
   * and events wait here, before their PUBACK, until it settles.
   */
  let hold: Promise<void> | null = null;
  const afterHold = (go: () => void) => {
    if (hold) void hold.then(() => afterHold(go));
    else go();
  };
  const signedIn = new WeakSet<Socket>();
  /** Each connected gateway's session and the secret it signed in with (to check it again). */
  const sessions = new Map<string, { client: Client; secret: string }>();
  const broker = await Aedes.createBroker({
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    preConnect: (client, packet, done) => {
      if (packet.protocolVersion !== 5) return done(null, true);
      options.log?.warn(
        { clientId: packet.clientId, username: packet.username, protocolVersion: 5 },
        `MQTT client refused: ${MQTT5_REFUSED}`,
      );
      client.conn.end(mqtt5Refusal());
      done(new Error(MQTT5_REFUSED), false);
    },
    authenticate: (client, username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (!username) return done(authError(), false);
      // Aedes closes an existing session with the same client id once this one is accepted:
      // a gateway signed in with another gateway's id would throw that gateway off.
      if (client.id !== gatewayClientId(username)) return done(identifierError(), false);
      options.verifyGateway(username, secret).then(
        (ok) => {
          if (ok) {
            principals.set(client, { kind: 'gateway', id: username });
            signedIn.add(client.conn as Socket);
            sessions.set(username, { client, secret });
          }
          done(ok ? null : authError(), ok);
        },
        () => done(authError(), false),
      );
    },
    authorizePublish: (client, packet, callback) => {
      // No client: the server itself, publishing in process.
      if (!client) return callback(null);
      const who = principals.get(client);
      const topic = parseTopic(packet.topic);
      const allowed =
        who?.kind === 'gateway' && topic?.gatewayId === who.id && GATEWAY_PUBLISHES.has(topic.kind);
      if (!allowed) return callback(new Error(`publish to ${packet.topic} not allowed`));
      // Aedes sends a QoS 1 message's PUBACK once it is authorised: held, the gateway is not told
      // the broker has it, and one that paces itself by PUBACKs (the agent) waits.
      if (topic.kind === 'telemetry' || topic.kind === 'events') afterHold(() => callback(null));
      else callback(null);
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const who = principals.get(client);
      const topic = parseTopic(subscription.topic);
      const allowed =
        who?.kind === 'gateway' &&
        topic?.gatewayId === who.id &&
        GATEWAY_SUBSCRIBES.has(topic.kind);
      callback(
        allowed ? null : new Error(`subscribe to ${subscription.topic} not allowed`),
        allowed ? subscription : null,
      );
    },
  });

  broker.on('clientDisconnect', (client) => {
    const who = principals.get(client);
    if (who && sessions.get(who.id)?.client === client) sessions.delete(who.id);
  });

  /**
   * The session of the gateway an ack or a command is for, when it has subscribed to that topic:
   * the server hands it over directly. Through the broker it queued behind every message waiting
   * there: with gateways slow to read holding Aedes' 100 deliveries in flight, a backlog of
   * telemetry kept the acks and `received` notices from every gateway, which then resent whole
   * windows (issue 27's contention run at 100 gateways).
   */
  const subscribedGateway = (topic: string): Client | null => {
    const parsed = parseTopic(topic);
    if (parsed?.kind !== 'ack' && parsed?.kind !== 'cmd') return null;
    const client = sessions.get(parsed.gatewayId)?.client;
    if (!client || client.closed) return null;
    const { subscriptions } = client as unknown as { subscriptions?: Record<string, unknown> };
    return subscriptions?.[topic] ? client : null;
  };

  /** Ends a gateway's session (its last will says offline); it must sign in again. */
  const disconnectGateway = (gatewayId: string): boolean => {
    const session = sessions.get(gatewayId);
    if (!session) return false;
    sessions.delete(gatewayId);
    session.client.close();
    return true;
  };
  const recheck = async () => {
    for (const [gatewayId, { secret }] of sessions) {
      const ok = await options.verifyGateway(gatewayId, secret).catch(() => true);
      if (!ok) disconnectGateway(gatewayId);
    }
  };
  const recheckTimer = setInterval(() => void recheck(), options.recheckMs ?? 30_000);
  recheckTimer.unref();

  const server: Server = createServer((socket) => {
    guardPacketSize(socket, () =>
      signedIn.has(socket) ? MQTT_MAX_PACKET_BYTES : MQTT_MAX_CONNECT_BYTES,
    );
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      broker.close();
      reject(
        error.code === 'EADDRINUSE'
          ? new BrokerPortInUseError(
              `MQTT 端口 ${options.port} 已被占用 / MQTT port ${options.port} is in use (another broker, e.g. Mosquitto?): ` +
                'set MQTT_PORT to a free port for the embedded broker, or MQTT_URL to use that broker instead',
            )
          : error,
      );
    });
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host ?? '0.0.0.0';
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;

  /**
   * The server's side of the embedded broker, in process: no socket, no second MQTT parse for
   * every message (the ingest hot path). Each kind is one broker subscription, so a message
   * reaches its consumers without parsing its topic here.
   */
  const inProcessBus = (): Bus => {
    const subscribers = new Subscribers();
    let delivered = 0;
    const deliverers = new Map<InboundKind, Parameters<Aedes['subscribe']>[1]>();
    let intakeStopped = false;
    return {
      get connected() {
        return !broker.closed;
      },
      async subscribe(kind, handler) {
        if (intakeStopped || !subscribers.add(kind, handler)) return;
        const deliver: Parameters<Aedes['subscribe']>[1] = (packet, done) => {
          const asked = subscribers.deliver(
            kind,
            packet.topic,
            Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
          );
          // The server is behind (bus.ts, MessageHandler): what gateways send next waits in
          // authorizePublish, unacknowledged, until it says so.
          if (asked && asked !== hold) {
            hold = asked;
            void asked.then(() => {
              if (hold === asked) hold = null;
            });
          }
          // Not at once: Aedes delivers the next queued message from this callback, so a queue
          // (gateways slow to read their acks hold its 100 deliveries in flight) went one stack
          // frame deeper a message until "Maximum call stack size exceeded" killed the server.
          // And not all in one task: every YIELD_EVERY messages timers and sockets get their turn
          // (the flush, its acks, the `received` notices that keep gateways from resending).
          if (++delivered % YIELD_EVERY === 0) setImmediate(done);
          else queueMicrotask(done);
        };
        deliverers.set(kind, deliver);
        await new Promise<void>((resolve) =>
          broker.subscribe(serverSubscriptionOf(kind), deliver, resolve),
        );
      },
      publish(topic, payload) {
        if (broker.closed) return false;
        const packet = {
          cmd: 'publish',
          topic,
          payload: Buffer.from(payload),
          qos: 1,
          retain: false,
          dup: false,
        } as const;
        const gateway = subscribedGateway(topic);
        if (gateway) gateway.publish(packet, () => undefined);
        else broker.publish(packet, () => undefined);
        return true;
      },
      async stopIntake() {
        if (intakeStopped) return;
        intakeStopped = true;
        await Promise.all(
          [...deliverers].map(
            ([kind, deliver]) =>
              new Promise<void>((resolve) =>
                broker.unsubscribe(serverSubscriptionOf(kind), deliver, resolve),
              ),
          ),
        );
      },
      close: async () => undefined,
    };
  };

  return {
    port,
    url: `mqtt://${localHost.includes(':') ? `[${localHost}]` : localHost}:${port}`,
    inProcessBus,
    disconnectGateway,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(recheckTimer);
        server.close();
        broker.close(() => resolve());
      }),
  };
};

export type EmbeddedBroker = Awaited<ReturnType<typeof startEmbeddedBroker>>;
