import {
  ackMessage,
  eventsMessage,
  operationEvent,
  reading as readingSchema,
  telemetryMessage,
  topicOf,
  type GatewayStateMessage,
  type Reading,
} from '@linewatch/contracts/mqtt';
import path from 'node:path';
import { OfflineBuffer, type BufferedKind } from './buffer/offline-buffer.ts';
import type { AgentSettings, GatewayConfig, MachineConfig } from './config.ts';
import type { MachineDriver } from './drivers/driver.ts';
import { SimulatedDriver } from './drivers/simulated.ts';
import { MqttLink, type Logger } from './link/mqtt-link.ts';

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

/** QoS 1 messages on the wire awaiting PUBACK; bounds memory and socket buffers during a replay. */
const MAX_IN_FLIGHT = 100;
const MAX_READINGS_PER_MESSAGE = 500;
const STOP_PUBLISH_TIMEOUT_MS = 3000;

export async function startGateway(
  gateway: GatewayConfig,
  settings: AgentSettings,
): Promise<GatewayAgent> {
  const log = prefixed(`[gw ${gateway.id}]`);
  const buffer = OfflineBuffer.open(gateway.bufferDir, {
    maxMessages: settings.bufferMaxMessages,
    onDrop: (dropped) => {
      if (dropped === 1 || dropped % 1000 === 0) {
        log.warn(
          `buffer full (${settings.bufferMaxMessages}): oldest unacked messages dropped, ${dropped} so far`,
        );
      }
    },
  });
  const drivers = gateway.machines.map((m) => createDriver(m, path.join(gateway.bufferDir, 'plc')));
  const topics = {
    telemetry: topicOf(gateway.id, 'telemetry'),
    events: topicOf(gateway.id, 'events'),
    state: topicOf(gateway.id, 'state'),
    ack: topicOf(gateway.id, 'ack'),
    cmd: topicOf(gateway.id, 'cmd'),
  };
  const stateMessage = (state: 'online' | 'offline'): string =>
    JSON.stringify({
      state,
      ts: Date.now(),
      ...(state === 'online' && { machines: drivers.map((d) => d.sn) }),
    } satisfies GatewayStateMessage);

  // Sending: everything from `nextToSend` on is (re)published in seq order, at most MAX_IN_FLIGHT
  // at a time. A new connection or an ack timeout starts a new round from the oldest unacked
  // message; PUBACKs from an older round no longer count.
  let nextToSend = 0;
  let inFlight = 0;
  let round = 0;
  let ready = false;
  /** Since when the oldest sent message has waited with no ack progress. */
  let waitingSince: number | null = null;
  /**
   * Resends since the last ack progress. Each doubles the wait before the next (up to 32x), so a
   * server that is down while the broker is up is not sent the whole buffer every ackTimeoutMs.
   */
  let quietResends = 0;

  // The oldest message held says so (floor): everything below it is acknowledged or was dropped
  // from a full buffer, so the server may accept it past a gap instead of waiting forever.
  const withFloor = (message: { seq: number; payload: string }): string =>
    message.seq === buffer.oldestSeq
      ? JSON.stringify({ ...(JSON.parse(message.payload) as object), floor: message.seq })
      : message.payload;

  const pump = () => {
    const current = round;
    while (ready && inFlight < MAX_IN_FLIGHT) {
      const message = buffer.nextFrom(nextToSend);
      if (!message) return;
      nextToSend = message.seq + 1;
      inFlight++;
      waitingSince ??= Date.now();
      link.publish(topics[message.kind], withFloor(message)).then(
        () => {
          if (current !== round) return;
          inFlight--;
          pump();
        },
        // The link dropped: the next connection starts a fresh replay.
        () => {},
      );
    }
  };

  const newRound = () => {
    round++;
    inFlight = 0;
    nextToSend = 0;
    waitingSince = null;
  };

  const onAck = (payload: Buffer) => {
    let seq: number;
    try {
      seq = ackMessage.parse(JSON.parse(payload.toString())).seq;
    } catch {
      log.warn('ignored a malformed ack');
      return;
    }
    const before = buffer.oldestSeq;
    buffer.ack(seq);
    if (buffer.oldestSeq === before) return;
    const oldest = buffer.oldestSeq;
    waitingSince = oldest !== undefined && oldest < nextToSend ? Date.now() : null;
    quietResends = 0;
  };

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
      newRound();
      quietResends = 0;
      const current = round;
      // Subscribing before the replay so no ack for it can be missed.
      void Promise.all([
        link.publish(topics.state, stateMessage('online'), { retain: true }),
        link.subscribe([topics.ack, topics.cmd]),
      ])
        .catch((error: unknown) => {
          if (current === round) log.warn(`announcing the connection failed: ${String(error)}`);
        })
        .then(() => {
          if (current !== round) return;
          ready = true;
          if (buffer.size > 0) {
            log.info(`replaying ${buffer.size} unacked messages from seq ${buffer.oldestSeq}`);
          }
          pump();
        });
    },
    onDisconnect: () => {
      ready = false;
      newRound();
    },
    onMessage: (topic, payload) => {
      // Commands (bind/unbind) are not handled by this agent yet; they are received and ignored.
      if (topic === topics.ack) onAck(payload);
    },
  });

  const enqueue = (kind: BufferedKind, build: (seq: number) => unknown) => {
    const message = build(buffer.nextSeq);
    const schema = kind === 'telemetry' ? telemetryMessage : eventsMessage;
    const checked = schema.safeParse(message);
    if (!checked.success) {
      log.warn(`not sent, invalid ${kind} message: ${checked.error.issues[0]?.message}`);
      return;
    }
    buffer.append({ seq: buffer.nextSeq, kind, payload: JSON.stringify(checked.data) });
  };

  const lastPublished = new Map<string, { key: string; at: number }>();
  const failing = new Set<string>();
  const accept = (sn: string, result: PromiseSettledResult<Reading>): Reading | null => {
    const checked = result.status === 'fulfilled' ? readingSchema.safeParse(result.value) : null;
    if (checked?.success) {
      if (failing.delete(sn)) log.info(`machine ${sn} readable again`);
      return checked.data;
    }
    if (!failing.has(sn)) {
      failing.add(sn);
      const reason =
        result.status === 'rejected' ? String(result.reason) : checked?.error.issues[0]?.message;
      log.warn(`machine ${sn} unreadable: ${reason}`);
    }
    return null;
  };
  const perMessage = Math.min(settings.readingsPerMessage, MAX_READINGS_PER_MESSAGE);

  const poll = async () => {
    const now = Date.now();
    const results = await Promise.allSettled(
      drivers.map(async (driver): Promise<Reading> => ({
        sn: driver.sn,
        ts: now,
        ...(await driver.read(now)),
      })),
    );
    const due: Reading[] = [];
    results.forEach((result, i) => {
      const value = accept(drivers[i]!.sn, result);
      if (!value) return;
      const key = JSON.stringify([value.status, value.idleReason, value.counters, value.alarms]);
      const last = lastPublished.get(value.sn);
      if (last && last.key === key && now - last.at < settings.heartbeatMs) return;
      lastPublished.set(value.sn, { key, at: now });
      due.push(value);
    });
    for (let i = 0; i < due.length; i += perMessage) {
      enqueue('telemetry', (seq) => ({ seq, readings: due.slice(i, i + perMessage) }));
    }
    const events = drivers
      .flatMap((d) => d.takeEvents())
      .filter((event) => {
        const checked = operationEvent.safeParse(event);
        if (!checked.success)
          log.warn(`dropped invalid event of ${event.sn}: ${checked.error.issues[0]?.message}`);
        return checked.success;
      });
    for (let i = 0; i < events.length; i += MAX_READINGS_PER_MESSAGE) {
      enqueue('events', (seq) => ({ seq, events: events.slice(i, i + MAX_READINGS_PER_MESSAGE) }));
    }
    pump();
  };

  let stopping = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let polling: Promise<void> = Promise.resolve();
  const schedule = (at: number) => {
    pollTimer = setTimeout(() => {
      polling = poll().catch((error: unknown) => log.warn(`poll failed: ${String(error)}`));
      void polling.then(() => {
        if (!stopping) schedule(Math.max(at + settings.pollIntervalMs, Date.now()));
      });
    }, at - Date.now());
  };

  const retransmitTimer = setInterval(
    () => {
      const timeout = settings.ackTimeoutMs * 2 ** Math.min(quietResends, 5);
      if (ready && waitingSince !== null && Date.now() - waitingSince >= timeout) {
        log.warn(
          `no ack for ${timeout} ms; resending ${buffer.size} messages from seq ${buffer.oldestSeq}`,
        );
        quietResends++;
        newRound();
        pump();
      }
    },
    Math.min(1000, Math.max(10, settings.ackTimeoutMs / 4)),
  );

  link.start();
  schedule(Date.now());

  return {
    stats: () => ({
      connected: ready,
      lastSeq: buffer.nextSeq - 1,
      unacked: buffer.size,
      oldestUnacked: buffer.oldestSeq,
      dropped: buffer.dropped,
    }),
    async stop() {
      stopping = true;
      clearTimeout(pollTimer);
      clearInterval(retransmitTimer);
      await polling;
      if (link.connected) {
        await withTimeout(
          link.publish(topics.state, stateMessage('offline'), { retain: true }),
          STOP_PUBLISH_TIMEOUT_MS,
        ).catch((error: unknown) => log.warn(`offline state not published: ${String(error)}`));
      }
      ready = false;
      newRound();
      await link.close();
      buffer.close();
      await Promise.all(drivers.map((d) => d.close()));
      log.info(`stopped; ${buffer.size} unacked messages kept`);
    },
  };
}

/** `stateDir`: where a driver may keep what the machine itself would remember across restarts. */
function createDriver(machine: MachineConfig, stateDir: string): MachineDriver {
  switch (machine.driver) {
    case 'simulated':
      return new SimulatedDriver({ ...machine, stateDir });
  }
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
