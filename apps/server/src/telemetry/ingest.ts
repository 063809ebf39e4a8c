import {
  eventsMessage,
  parseTopic,
  telemetryMessage,
  type EventsMessage,
  type Reading,
  type TelemetryMessage,
} from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { DeviceRegistry } from '../devices/device-registry.ts';
import type { LiveState } from './live-state.ts';
import { addFigures } from '../shared/metrics.ts';
import { effectsOf, type MachineSnapshot, type ReadingEffects } from './reading-effects.ts';
import { emptyBatch, type Batch, type TelemetryRepository } from './repository.ts';

export interface IngestCounters {
  received: number;
  accepted: number;
  duplicates: number;
  outOfOrder: number;
  malformed: number;
  /** From a gateway this server does not know (a shared external broker carries others too). */
  unknownGateway: number;
  unknownMachine: number;
  lostByGateway: number;
  flushes: number;
  flushFailures: number;
  /** Messages the database refused even alone, stored in dead_letters (all time, not since start). */
  deadLetters: number;
  /** Readings whose counters moved more than the machine could have: counted nothing, new base. */
  counterRebaselines: number;
}

/** The operation-log line of a counter re-baseline (DESIGN.md section 5, plausible counters). */
const REBASELINE_COMMENT = '计数器重新基准';

const rebaselineOperation = (
  sn: string,
  ts: number,
  r: NonNullable<ReadingEffects['rebaseline']>,
) => ({
  sn,
  ts,
  comment: REBASELINE_COMMENT,
  setValue: r.counters.map((c) => `${c} ${r.from[c]}→${r.to[c]}`).join(', '),
  user: 'system',
});

export interface IngestorDeps {
  repo: TelemetryRepository;
  /** Each gateway's committed seq at start (gateways/repository.ts). */
  loadGatewaySeqs: () => Promise<Map<string, number>>;
  live: LiveState;
  devices: DeviceRegistry;
  publishAck: (gatewayId: string, seq: number) => void;
  log: FastifyBaseLogger;
  flushIntervalMs?: number;
}

const FLUSH_AT_MESSAGES = 5000;

/**
 * Work another domain does with what a flush writes, in the flush's transaction (alerts: the
 * messages an alarm or a stop causes). It sees the batch's rows already written; if it fails,
 * nothing of the flush commits and the flush is retried later (not dead-lettered: the readings
 * are not at fault).
 */
type FlushHook = (tx: Db, batch: Readonly<Batch>) => Promise<void>;

/** A flush hook's failure, kept apart from the database refusing the readings themselves. */
class FlushHookError extends Error {}

/**
 * A message accepted since the last commit, kept small: if its flush is refused, its effects are
 * recomputed from the payload (see `#replay`) rather than held for every message.
 */
interface PendingMessage {
  gatewayId: string;
  seq: number;
  topic: string;
  payload: Buffer;
  /** Readings or events dropped at intake (a machine of another gateway); almost always null. */
  skipped: Set<number> | null;
}

/** What waits for the next flush. */
interface Pending {
  messages: PendingMessage[];
  /** The rows of all of them, folded as they arrive: what a flush normally writes. */
  batch: Batch;
  /** Each machine's snapshot before the first of these messages: where a replay starts. */
  before: Map<string, MachineSnapshot | undefined>;
  /** When the oldest of them arrived (epoch ms; 0 while empty): the flush's ingest lag. */
  since: number;
}

/** What one committed flush did, for the operator's metrics. */
export interface FlushReport {
  messages: number;
  /** The write's own time. */
  durationMs: number;
  /** From the arrival of the oldest message it wrote to its commit. */
  lagMs: number;
}

const emptyPending = (): Pending => ({
  messages: [],
  batch: emptyBatch(),
  before: new Map(),
  since: 0,
});

/** One message with the effects it had, recomputed to find the one the database refuses. */
interface ReplayedMessage extends PendingMessage {
  readings: {
    sn: string;
    ts: number;
    previous: MachineSnapshot | undefined;
    effects: ReadingEffects;
  }[];
  operations: Batch['operations'];
}

const addEffects = (batch: Batch, sn: string, ts: number, effects: ReadingEffects) => {
  if (effects.rebaseline) batch.operations.push(rebaselineOperation(sn, ts, effects.rebaseline));
  for (const [minute, figures] of effects.minutes) {
    const key = `${sn}|${minute}`;
    const existing = batch.minutes.get(key);
    if (existing) addFigures(existing.figures, figures);
    else batch.minutes.set(key, { sn, minute, figures: { ...figures } });
  }
  if (effects.statusChange) batch.statusChanges.push({ sn, ...effects.statusChange });
  for (const a of effects.alarmsRaised)
    batch.alarmEdges.push({ sn, code: a.code, ts: a.ts, active: true });
  for (const a of effects.alarmsCleared)
    batch.alarmEdges.push({ sn, code: a.code, ts: a.ts, active: false });
  batch.snapshots.set(sn, effects.snapshot);
};

/** The rows of messages [from, to), in arrival order, as one transaction writes them. */
const batchOf = (messages: readonly ReplayedMessage[], from = 0, to = messages.length) => {
  const batch = emptyBatch();
  for (let i = from; i < to; i++) {
    const message = messages[i]!;
    batch.gatewaySeq.set(message.gatewayId, message.seq);
    for (const { sn, ts, effects } of message.readings) addEffects(batch, sn, ts, effects);
    batch.operations.push(...message.operations);
  }
  return batch;
};

/** An unwritten batch put back in front of what arrived since, so a failed flush loses nothing. */
const mergeBatches = (older: Batch, newer: Batch): Batch => {
  for (const [gw, seq] of newer.gatewaySeq)
    older.gatewaySeq.set(gw, Math.max(seq, older.gatewaySeq.get(gw) ?? 0));
  for (const [key, m] of newer.minutes) {
    const existing = older.minutes.get(key);
    if (existing) addFigures(existing.figures, m.figures);
    else older.minutes.set(key, m);
  }
  older.statusChanges.push(...newer.statusChanges);
  older.alarmEdges.push(...newer.alarmEdges);
  older.operations.push(...newer.operations);
  for (const [sn, s] of newer.snapshots) older.snapshots.set(sn, s);
  return older;
};

const mergePending = (older: Pending, newer: Pending): Pending => {
  for (const [sn, snapshot] of newer.before)
    if (!older.before.has(sn)) older.before.set(sn, snapshot);
  return {
    messages: older.messages.concat(newer.messages),
    batch: mergeBatches(older.batch, newer.batch),
    before: older.before,
    since: older.since || newer.since,
  };
};

/** What is left of a replay after a failure, as pending again. */
const pendingOf = (messages: readonly ReplayedMessage[], since: number): Pending => {
  const before = new Map<string, MachineSnapshot | undefined>();
  for (const m of messages)
    for (const r of m.readings) if (!before.has(r.sn)) before.set(r.sn, r.previous);
  return {
    messages: messages.map(({ gatewayId, seq, topic, payload, skipped }) => ({
      gatewayId,
      seq,
      topic,
      payload,
      skipped,
    })),
    batch: batchOf(messages),
    before,
    since,
  };
};

const operationOf = (event: EventsMessage['events'][number]): Batch['operations'][number] => ({
  sn: event.sn,
  ts: event.ts,
  comment: event.comment,
  setValue: event.setValue,
  user: event.user,
});

/**
 * The database refused the data itself (SQLSTATE class 22 data exception, 23 constraint
 * violation): writing it again fails again. Anything else (connection lost, database closing)
 * may pass on retry.
 */
const isDataError = (error: unknown) => {
  if (error instanceof FlushHookError) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
};

/**
 * Telemetry and events from the gateways, in each gateway's sequence order. A message is applied
 * to the live state at once, written with the gateway's watermark by the next flush, and
 * acknowledged only after that commit (DESIGN.md section 6, end-to-end acknowledgement).
 */
export class Ingestor {
  readonly counters: IngestCounters = {
    received: 0,
    accepted: 0,
    duplicates: 0,
    outOfOrder: 0,
    malformed: 0,
    unknownGateway: 0,
    unknownMachine: 0,
    lostByGateway: 0,
    flushes: 0,
    flushFailures: 0,
    deadLetters: 0,
    counterRebaselines: 0,
  };
  /** Highest seq applied in memory, per gateway. */
  readonly #accepted = new Map<string, number>();
  /** Highest seq committed to the database, per gateway. */
  readonly #persisted = new Map<string, number>();
  readonly #ackDue = new Set<string>();
  #pending = emptyPending();
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #retryAt = 0;
  /** Failed flushes since the last one that wrote: the retry wait grows with these only. */
  #failuresInARow = 0;
  readonly #hooks = new Set<FlushHook>();
  readonly #flushed = new Set<(report: FlushReport) => void>();

  constructor(private readonly deps: IngestorDeps) {}

  /**
   * Adds work done in every flush's transaction (see FlushHook), in the order added; register
   * before intake starts. Returns its removal.
   */
  onFlush(hook: FlushHook): () => void {
    this.#hooks.add(hook);
    return () => this.#hooks.delete(hook);
  }

  /** Called after each committed write (metrics). */
  onFlushed(listener: (report: FlushReport) => void): void {
    this.#flushed.add(listener);
  }

  async #write(batch: Batch, messages: number, since: number) {
    const started = Date.now();
    const stored = await this.#writeBatch(batch);
    const done = Date.now();
    const report = { messages, durationMs: done - started, lagMs: since ? done - since : 0 };
    for (const listener of this.#flushed) listener(report);
    return stored;
  }

  #writeBatch(batch: Batch) {
    return this.deps.repo.writeBatch(batch, async (tx) => {
      for (const hook of this.#hooks) {
        try {
          await hook(tx, batch);
        } catch (error) {
          throw new FlushHookError('a flush hook failed', { cause: error });
        }
      }
    });
  }

  async start(): Promise<void> {
    for (const [gw, seq] of await this.deps.loadGatewaySeqs()) {
      this.#accepted.set(gw, seq);
      this.#persisted.set(gw, seq);
    }
    this.counters.deadLetters = await this.deps.repo.countDeadLetters();
    this.#timer = setInterval(() => void this.flush(), this.deps.flushIntervalMs ?? 100);
  }

  /** Adds a gateway registered after start (bind, demo seed). */
  registerGateway(gatewayId: string, seq = 0) {
    if (!this.#accepted.has(gatewayId)) {
      this.#accepted.set(gatewayId, seq);
      this.#persisted.set(gatewayId, seq);
    }
  }

  persistedSeq(gatewayId: string): number | undefined {
    return this.#persisted.get(gatewayId);
  }

  /** Tell a gateway its watermark again (it came online, or resent something already held). */
  requestAck(gatewayId: string) {
    if (this.#persisted.has(gatewayId)) this.#ackDue.add(gatewayId);
  }

  handle(topic: string, payload: Buffer): void {
    this.counters.received++;
    const parsed = parseTopic(topic);
    if (!parsed || (parsed.kind !== 'telemetry' && parsed.kind !== 'events')) return;
    const gw = parsed.gatewayId;
    const accepted = this.#accepted.get(gw);
    if (accepted === undefined) {
      this.counters.unknownGateway++;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.counters.malformed++;
      return;
    }
    const result =
      parsed.kind === 'telemetry'
        ? telemetryMessage.safeParse(json)
        : eventsMessage.safeParse(json);
    if (!result.success) {
      this.counters.malformed++;
      this.deps.log.debug(
        { topic, issue: result.error.issues[0] },
        'malformed gateway message dropped',
      );
      return;
    }
    const message = result.data;
    if (message.seq <= accepted) {
      this.counters.duplicates++;
      this.#ackDue.add(gw);
      return;
    }
    if (message.seq > accepted + 1) {
      // Accept past a gap only where the gateway says the missing messages are gone for good.
      if (message.floor === message.seq) {
        this.counters.lostByGateway += message.seq - accepted - 1;
        this.deps.log.warn(
          { gateway: gw, from: accepted + 1, to: message.seq - 1 },
          'gateway dropped messages from its full buffer',
        );
      } else {
        this.counters.outOfOrder++;
        return;
      }
    }
    this.#accepted.set(gw, message.seq);
    this.counters.accepted++;
    const pending = this.#pending;
    if (pending.messages.length === 0) pending.since = Date.now();
    pending.batch.gatewaySeq.set(gw, message.seq);
    const skipped =
      'readings' in message
        ? this.#applyTelemetry(pending, gw, message)
        : this.#applyEvents(pending, gw, message);
    const count = pending.messages.push({
      gatewayId: gw,
      seq: message.seq,
      topic,
      payload,
      skipped,
    });
    if (count >= FLUSH_AT_MESSAGES) void this.flush();
  }

  /** One place where a reading becomes effects, for intake and for a replay alike. */
  #effectsOf(previous: MachineSnapshot | undefined, reading: Reading): ReadingEffects {
    // Intake only takes readings of registered machines; one removed since is judged unbounded.
    const limits = this.deps.devices.get(reading.sn) ?? { ppmTarget: 0, maxPpm: null };
    return effectsOf(previous, reading, limits);
  }

  #applyTelemetry(pending: Pending, gw: string, message: TelemetryMessage): Set<number> | null {
    let skipped: Set<number> | null = null;
    message.readings.forEach((reading, i) => {
      if (this.deps.devices.get(reading.sn)?.gatewayId !== gw) {
        this.counters.unknownMachine++;
        (skipped ??= new Set()).add(i);
        return;
      }
      const previous = this.deps.live.snapshot(reading.sn);
      if (!pending.before.has(reading.sn)) pending.before.set(reading.sn, previous);
      const effects = this.#effectsOf(previous, reading);
      if (effects.rebaseline) {
        this.counters.counterRebaselines++;
        this.deps.log.warn(
          { sn: reading.sn, ...effects.rebaseline },
          'implausible counter jump: re-baselined, no parts counted',
        );
      }
      addEffects(pending.batch, reading.sn, reading.ts, effects);
      this.deps.live.apply(reading.sn, effects);
    });
    return skipped;
  }

  #applyEvents(pending: Pending, gw: string, message: EventsMessage): Set<number> | null {
    let skipped: Set<number> | null = null;
    message.events.forEach((event, i) => {
      if (this.deps.devices.get(event.sn)?.gatewayId !== gw) {
        this.counters.unknownMachine++;
        (skipped ??= new Set()).add(i);
        return;
      }
      pending.batch.operations.push(operationOf(event));
    });
    return skipped;
  }

  /**
   * The effects each message had, recomputed in arrival order from the machines' snapshots before
   * the first of them: the same inputs, so the same effects (the payloads passed the schema).
   */
  #replay(pending: Pending): ReplayedMessage[] {
    const snapshots = new Map(pending.before);
    return pending.messages.map((m) => {
      const message = JSON.parse(m.payload.toString('utf8')) as TelemetryMessage | EventsMessage;
      const replayed: ReplayedMessage = { ...m, readings: [], operations: [] };
      if ('readings' in message) {
        message.readings.forEach((reading, i) => {
          if (m.skipped?.has(i)) return;
          const previous = snapshots.get(reading.sn);
          const effects = this.#effectsOf(previous, reading);
          snapshots.set(reading.sn, effects.snapshot);
          replayed.readings.push({ sn: reading.sn, ts: reading.ts, previous, effects });
        });
      } else {
        message.events.forEach((event, i) => {
          if (!m.skipped?.has(i)) replayed.operations.push(operationOf(event));
        });
      }
      return replayed;
    });
  }

  /** Writes what was accepted, then acknowledges it. Never two flushes at once. */
  flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    const pending = this.#pending;
    if (pending.messages.length > 0 && Date.now() >= this.#retryAt) {
      this.#pending = emptyPending();
      let unwritten: Pending = pending;
      try {
        try {
          this.deps.live.settle(
            await this.#write(pending.batch, pending.messages.length, pending.since),
          );
          this.counters.flushes++;
          this.#committed(pending.messages, 0, pending.messages.length);
        } catch (error) {
          if (!isDataError(error)) throw error;
          const replayed = this.#replay(pending);
          const progress = { done: 0 };
          try {
            await this.#writeRange(replayed, 0, replayed.length, progress, pending.since);
          } catch (failure) {
            unwritten = pendingOf(replayed.slice(progress.done), pending.since);
            throw failure;
          }
        }
        this.#failuresInARow = 0;
      } catch (error) {
        this.counters.flushFailures++;
        this.#failuresInARow++;
        this.#retryAt = Date.now() + Math.min(30_000, 500 * 2 ** Math.min(this.#failuresInARow, 6));
        this.deps.log.error(
          { err: error },
          'writing telemetry failed; kept in memory and retried, nothing acknowledged',
        );
        this.#pending = mergePending(unwritten, this.#pending);
      }
    }
    for (const gw of this.#ackDue) this.deps.publishAck(gw, this.#persisted.get(gw) ?? 0);
    this.#ackDue.clear();
  }

  #committed(messages: readonly PendingMessage[], from: number, to: number) {
    for (let i = from; i < to; i++) {
      const { gatewayId, seq } = messages[i]!;
      this.#persisted.set(gatewayId, seq);
      this.#ackDue.add(gatewayId);
    }
  }

  /**
   * Writes messages [from, to) in one transaction. When the database refuses the data, the range
   * is halved until the message it refuses stands alone; that one is dead-lettered and everyone
   * else's messages are written around it, still in arrival order (so each gateway's watermark
   * only moves forward). Any other error is thrown with `progress.done` at the first unwritten.
   */
  async #writeRange(
    messages: readonly ReplayedMessage[],
    from: number,
    to: number,
    progress: { done: number },
    since: number,
  ): Promise<void> {
    try {
      this.deps.live.settle(await this.#write(batchOf(messages, from, to), to - from, since));
      this.counters.flushes++;
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (to - from > 1) {
        const middle = from + Math.floor((to - from) / 2);
        await this.#writeRange(messages, from, middle, progress, since);
        await this.#writeRange(messages, middle, to, progress, since);
        return;
      }
      await this.#deadLetter(messages[from]!, error);
    }
    this.#committed(messages, from, to);
    progress.done = to;
  }

  /**
   * Stores the message the database refused, with its error, and moves its gateway's watermark
   * past it. Its effects stay in the live state (later readings were computed against its
   * snapshot) until a restart rebuilds the live state from the database, which never saw them.
   */
  async #deadLetter(message: ReplayedMessage, error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    await this.deps.repo.writeDeadLetter({
      gatewayId: message.gatewayId,
      topic: message.topic,
      seq: message.seq,
      payload: message.payload,
      error: reason,
    });
    this.counters.deadLetters++;
    this.deps.log.error(
      {
        gateway: message.gatewayId,
        seq: message.seq,
        machines: message.readings.map((r) => r.sn),
        err: error,
      },
      'the database refused a gateway message: dead-lettered and acknowledged',
    );
  }

  /** Stops intake timing and writes what is left (graceful shutdown). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#retryAt = 0;
    await this.flush();
    if (this.#pending.messages.length > 0) await this.flush();
  }
}
