import { topicOf, type GatewayStateMessage } from '@linewatch/contracts/mqtt';
import agentPackage from '../package.json' with { type: 'json' };
import { OfflineBuffer } from './buffer/offline-buffer.ts';
import { CommandHandler } from './commands.ts';
import { Machines } from './bind/machines.ts';
import type { MachineDriver } from './drivers/driver.ts';
import type { AgentSettings, GatewayConfig } from './config.ts';
import { MqttLink, type Logger } from './link/mqtt-link.ts';
import { Poller } from './poller.ts';
import { Sender } from './sender.ts';

interface GatewayStats {
  connected: boolean;
  /** Seq of the last message created (0 before the first). */
  lastSeq: number;
  /** Messages waiting for the server's ack. */
  unacked: number;
  oldestUnacked: number | undefined;
  dropped: number;
}

export interface GatewayAgent {
  stats(): GatewayStats;
  /** Publishes the retained offline state, persists the buffer and disconnects. */
  stop(): Promise<void>;
}

const STOP_PUBLISH_TIMEOUT_MS = 3000;

/**
 * Announced in the online state; the server's gateway registry shows it. Imported, not read at run
 * time: the server's build bundles the agent, where no package.json sits beside it.
 */
const AGENT_VERSION = agentPackage.version;

/**
 * One gateway: its machines polled into the offline buffer (poller.ts), the buffer sent over the
 * MQTT link until the server acknowledges it (sender.ts), and the server's commands answered
 * (commands.ts).
 */
export async function startGateway(
  gateway: GatewayConfig,
  settings: AgentSettings,
  /** The clock readings and the buffer's age bound go by; tests pass a simulated one. */
  now: () => number = Date.now,
): Promise<GatewayAgent> {
  const log = prefixed(`[gw ${gateway.id}]`);
  let warnedAt = 0;
  const buffer = OfflineBuffer.open(gateway.bufferDir, {
    maxMessages: settings.bufferMaxMessages,
    maxAgeMs: settings.bufferMaxAgeMs,
    now,
    onDrop: (dropped, reason) => {
      // Counted always, said once per thousand (a long outage drops at every poll).
      if (warnedAt !== 0 && dropped - warnedAt < 1000) return;
      warnedAt = dropped;
      const bound =
        reason === 'age'
          ? `older than ${settings.bufferMaxAgeMs} ms`
          : `over ${settings.bufferMaxMessages} messages`;
      log.warn(`buffer: oldest unacked messages dropped (${bound}), ${dropped} so far`);
    },
  });
  const machines: Machines = new Machines({
    gatewayId: gateway.id,
    bufferDir: gateway.bufferDir,
    configured: gateway.machines,
    settings,
    log,
    quiesce: (): Promise<void> => poller.settled(),
    // The retained state lists the machines: say it again with the new list.
    onChange: () => {
      if (link.connected)
        void link
          .publish(topics.state, stateMessage('online'), { retain: true })
          .catch(() => undefined);
    },
  });
  const topics = {
    telemetry: topicOf(gateway.id, 'telemetry'),
    events: topicOf(gateway.id, 'events'),
    state: topicOf(gateway.id, 'state'),
    ack: topicOf(gateway.id, 'ack'),
    cmd: topicOf(gateway.id, 'cmd'),
    cmdReply: topicOf(gateway.id, 'cmd/reply'),
  };
  const stateMessage = (state: 'online' | 'offline'): string =>
    JSON.stringify({
      state,
      ts: Date.now(),
      ...(state === 'online' && { machines: machines.sns(), agentVersion: AGENT_VERSION }),
    } satisfies GatewayStateMessage);

  const sender = new Sender({
    buffer,
    publish: (kind, payload) => link.publish(topics[kind], payload),
    ackTimeoutMs: settings.ackTimeoutMs,
    log,
  });
  const commands = new CommandHandler({
    reply: (reply) => link.publish(topics.cmdReply, JSON.stringify(reply)),
    bindings: machines,
    log,
  });

  const link = new MqttLink({
    url: settings.brokerUrl,
    clientId: `gw-${gateway.id}`,
    username: gateway.id,
    password: gateway.password,
    keepaliveSec: settings.keepaliveSec,
    reconnectMinMs: settings.reconnectMinMs,
    reconnectMaxMs: settings.reconnectMaxMs,
    will: () => ({ topic: topics.state, payload: stateMessage('offline') }),
    log,
    onConnect: () => {
      const round = sender.connected();
      // Subscribed before saying online and before the replay, so no ack and no command sent
      // in answer can be missed.
      const announce = async () => {
        try {
          await link.subscribe([topics.ack, topics.cmd]);
        } finally {
          await link.publish(topics.state, stateMessage('online'), { retain: true });
        }
      };
      void announce()
        .catch((error: unknown) => {
          if (sender.isCurrent(round))
            log.warn(`announcing the connection failed: ${String(error)}`);
        })
        .then(() => sender.start(round));
    },
    onDisconnect: () => sender.disconnected(),
    onMessage: (topic, payload) => {
      if (topic === topics.ack) sender.onAck(payload);
      else if (topic === topics.cmd) commands.handle(payload);
    },
  });

  const poller: Poller = new Poller({
    drivers: (): MachineDriver[] => machines.drivers(),
    buffer,
    pollIntervalMs: settings.pollIntervalMs,
    heartbeatMs: settings.heartbeatMs,
    readingsPerMessage: settings.readingsPerMessage,
    onBuffered: () => sender.pump(),
    now,
    log,
  });

  link.start();
  poller.start();

  return {
    stats: () => ({
      connected: sender.ready,
      lastSeq: buffer.nextSeq - 1,
      unacked: buffer.size,
      oldestUnacked: buffer.oldestSeq,
      dropped: buffer.dropped,
    }),
    async stop() {
      await poller.stop();
      sender.stop();
      if (link.connected) {
        await withTimeout(
          link.publish(topics.state, stateMessage('offline'), { retain: true }),
          STOP_PUBLISH_TIMEOUT_MS,
        ).catch((error: unknown) => log.warn(`offline state not published: ${String(error)}`));
      }
      await link.close();
      buffer.close();
      await machines.close();
      log.info(`stopped; ${buffer.size} unacked messages kept`);
    },
  };
}

function prefixed(prefix: string): Logger {
  return {
    info: (message) => console.log(`${prefix} ${message}`),
    warn: (message) => console.warn(`${prefix} ${message}`),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
