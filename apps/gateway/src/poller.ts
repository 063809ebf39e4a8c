import {
  eventsMessage,
  operationEvent,
  reading as readingSchema,
  telemetryMessage,
  type Reading,
} from '@linewatch/contracts/mqtt';
import type { BufferedKind, OfflineBuffer } from './buffer/offline-buffer.ts';
import type { MachineDriver } from './drivers/driver.ts';
import type { Logger } from './link/mqtt-link.ts';

const MAX_READINGS_PER_MESSAGE = 500;

interface PollerOptions {
  /** The machines to read, asked every poll (bind and unbind change them). */
  drivers: () => MachineDriver[];
  buffer: OfflineBuffer;
  pollIntervalMs: number;
  /** An unchanged reading is sent again only after this long. */
  heartbeatMs: number;
  readingsPerMessage: number;
  /** New messages are in the buffer. */
  onBuffered: () => void;
  /** The clock readings are stamped with (a test's simulated one); polls keep real time. */
  now: () => number;
  log: Logger;
}

/**
 * Drivers → readings → buffer, every pollIntervalMs on a fixed schedule. A reading is buffered
 * when it changed or its heartbeat is due; each message is numbered (seq) and checked against its
 * contract before it is kept.
 */
export class Poller {
  readonly #lastPublished = new Map<string, { key: string; at: number }>();
  readonly #failing = new Set<string>();
  readonly #perMessage: number;
  #stopping = false;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> = Promise.resolve();
  /** The last poll's timestamp: each poll's is later, so a machine's readings never share one. */
  #lastTs = -Infinity;

  constructor(private readonly options: PollerOptions) {
    this.#perMessage = Math.min(options.readingsPerMessage, MAX_READINGS_PER_MESSAGE);
  }

  start() {
    this.#schedule(Date.now());
  }

  /** Resolves once the poll under way (if any) is over. */
  settled(): Promise<void> {
    return this.#polling;
  }

  /** Stops the schedule and waits for a poll under way. */
  async stop() {
    this.#stopping = true;
    clearTimeout(this.#timer);
    await this.#polling;
  }

  #schedule(at: number) {
    this.#timer = setTimeout(() => {
      this.#polling = this.#poll().catch((error: unknown) =>
        this.options.log.warn(`poll failed: ${String(error)}`),
      );
      void this.#polling.then(() => {
        if (!this.#stopping) this.#schedule(Math.max(at + this.options.pollIntervalMs, Date.now()));
      });
    }, at - Date.now());
  }

  async #poll() {
    const { heartbeatMs, log } = this.options;
    const drivers = this.options.drivers();
    // A poll behind its schedule runs at once, on a timer whose cached loop time can put it in
    // the same millisecond as the last one: a reading's ts is still after the one before it.
    const now = Math.max(this.options.now(), this.#lastTs + 1);
    this.#lastTs = now;
    const results = await Promise.allSettled(
      drivers.map(async (driver): Promise<Reading> => ({
        sn: driver.sn,
        ts: now,
        ...(await driver.read(now)),
      })),
    );
    const due: Reading[] = [];
    results.forEach((result, i) => {
      const value = this.#accept(drivers[i]!.sn, result);
      if (!value) return;
      const key = JSON.stringify([value.status, value.idleReason, value.counters, value.alarms]);
      const last = this.#lastPublished.get(value.sn);
      if (last && last.key === key && now - last.at < heartbeatMs) return;
      this.#lastPublished.set(value.sn, { key, at: now });
      due.push(value);
    });
    for (let i = 0; i < due.length; i += this.#perMessage) {
      this.#enqueue('telemetry', now, (seq) => ({
        seq,
        readings: due.slice(i, i + this.#perMessage),
      }));
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
      this.#enqueue('events', now, (seq) => ({
        seq,
        events: events.slice(i, i + MAX_READINGS_PER_MESSAGE),
      }));
    }
    // Nothing may be appended for a while (no machine changes): the age bound holds anyway.
    this.options.buffer.enforceBounds();
    this.options.onBuffered();
  }

  #accept(sn: string, result: PromiseSettledResult<Reading>): Reading | null {
    const { log } = this.options;
    const checked = result.status === 'fulfilled' ? readingSchema.safeParse(result.value) : null;
    if (checked?.success) {
      if (this.#failing.delete(sn)) log.info(`machine ${sn} readable again`);
      return checked.data;
    }
    if (!this.#failing.has(sn)) {
      this.#failing.add(sn);
      const reason =
        result.status === 'rejected' ? reasonOf(result.reason) : checked?.error.issues[0]?.message;
      log.warn(`machine ${sn} unreadable: ${reason}`);
    }
    return null;
  }

  #enqueue(kind: BufferedKind, at: number, build: (seq: number) => unknown) {
    const { buffer, log } = this.options;
    const message = build(buffer.nextSeq);
    const schema = kind === 'telemetry' ? telemetryMessage : eventsMessage;
    const checked = schema.safeParse(message);
    if (!checked.success) {
      log.warn(`not sent, invalid ${kind} message: ${checked.error.issues[0]?.message}`);
      return;
    }
    buffer.append({ seq: buffer.nextSeq, kind, payload: JSON.stringify(checked.data), at });
  }
}

/** modbus-serial rejects with plain objects ({ name, message, errno }), not always Errors. */
const reasonOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'message' in error
    ? String(error.message)
    : String(error);
