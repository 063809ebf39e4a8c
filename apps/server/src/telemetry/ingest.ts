import {
  parseTopic,
  readGatewayMessage,
  type AckMessage,
  type EventsMessage,
  type Reading,
  type Rejection,
  type TelemetryMessage,
} from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../foundation/db/database.ts';
import type { DeviceRegistry } from '../core/device-registry.ts';
import { RECENT_MINUTES_MS, type LiveState } from '../core/live-state.ts';
import { addFigures } from '../foundation/shared/metrics.ts';
import { ownEverything, type OwnedStreams, type StreamOwnership } from './ownership.ts';
import {
  effectsOf,
  minuteOf,
  type MachineSnapshot,
  type ReadingEffects,
} from '../core/reading-effects.ts';
import { emptyBatch, FenceError, type Batch, type TelemetryRepository } from './repository.ts';
import { compileWholeMessageCheck } from './whole-message-check.ts';

export interface IngestCounters {
  received: number;
  accepted: number;
  duplicates: number;
  /** Arrived past a gap: held until the gap closes (the gateway is asked to resend it). */
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
  /** Acks with `next`: a gateway told where to resend from. */
  resumesSent: number;
  /** `received` notices: messages held uncommitted past HELD_NOTICE_MS (a busy database). */
  heldNotices: number;
  /** Times intake was held: a flush ran past SLOW_FLUSH_MS while messages kept coming. */
  intakeHolds: number;
  /** Writes refused because another instance had moved the gateway's watermark. */
  fencedWrites: number;
  /** Gateways' live state reloaded from the database (another instance wrote what this one missed). */
  streamResyncs: number;
}

/** The operation-log line of a counter re-baseline (docs/design.md section 5, plausible counters). */
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
  devices: Pick<DeviceRegistry, 'get' | 'snsOfGateway'>;
  /**
   * An ack: `seq` committed; with `next`, resend from there; with `rejected`, a message not
   * applied, or not whole; with `received`, held and being written: wait (docs/protocol.md).
   */
  publishAck: (gatewayId: string, ack: AckMessage) => void;
  /** A reading or event dropped: its machine is not bound to the gateway that sent it. */
  onUnknownMachine?: (gatewayId: string, sn: string) => void;
  log: FastifyBaseLogger;
  flushIntervalMs?: number;
  /** Readings and events one flush writes at most (default FLUSH_READINGS). */
  flushReadings?: number;
  /** How long a flush runs before new messages wait for it to end (default SLOW_FLUSH_MS). */
  slowFlushMs?: number;
  /** How long messages wait uncommitted before the gateway is told to wait (HELD_NOTICE_MS). */
  heldNoticeMs?: number;
  /** Which gateways this instance writes (default: all, one instance). */
  ownership?: StreamOwnership;
  /**
   * How often to read every gateway's committed watermark, when other instances write too: what
   * they committed is forgotten here, and a gateway this instance fell behind on is reloaded.
   */
  watermarkPollMs?: number;
}

const FLUSH_AT_MESSAGES = 5000;
/**
 * Readings and events written in one transaction at most (decision 78). A backlog (a loaded
 * database, gateways replaying after an outage) goes in several, each acknowledged as it commits
 * and the next started at once, gateways taken in turn: acks keep flowing well inside the
 * gateways' ack timeout instead of trailing one ever longer transaction until they resend whole
 * windows. About 0.2 s of PGlite's work on an idle core; normal flushes (every 100 ms) are far below.
 */
const FLUSH_READINGS = 25_000;
/**
 * Messages a gateway sent that this instance holds uncommitted this long (a busy database, a
 * backlog): it is told they are received and being written, and told again as often while it lasts
 * (`received`, docs/protocol.md § 4.2), so its ack timer (10 s) never runs out on data the server
 * has: resending it only added duplicates to the work the server was behind on (decision 78).
 */
const HELD_NOTICE_MS = 2000;
/**
 * A flush running this long holds intake until it ends (decision 79). A loaded server read
 * messages as fast as gateways sent them, and each of its flush's round trips to the database
 * waited behind all it read meanwhile: under ten CPU hogs a flush of 100 readings took 20 s while
 * 500,000 messages piled up. Normal flushes take well under a second (0.1–0.3 s a full part).
 */
const SLOW_FLUSH_MS = 3000;
/** Whole, valid messages taken without the zod parse: compiled once, at start (decision 5). */
const isWholeMessage = compileWholeMessageCheck();
/** A gap is answered with a resend request at most this often per gateway (it stays open a while). */
const RESUME_EVERY_MS = 1000;
/** Messages past a gap kept per gateway; beyond, newer ones are dropped (the gateway resends). */
const MAX_HELD = 10_000;
/**
 * Messages another instance writes, kept here until it has committed them (to be written here if
 * it dies first). Beyond, the oldest go: taking the gateway over then asks it to resend.
 */
const MAX_UNOWNED_PENDING = 100_000;

/**
 * Work another domain does with what a flush writes, in the flush's transaction (alerts: the
 * messages an alarm or a stop causes). It sees the batch's rows already written; if it fails,
 * nothing of the flush commits and the flush is retried later (not dead-lettered: the readings
 * are not at fault).
 */
type FlushHook = (tx: Db, batch: Readonly<Batch>) => Promise<void>;

/** A flush hook's failure, kept apart from the database refusing the readings themselves. */
class FlushHookError extends Error {}

/** What one committed flush did, for the operator's metrics. */
export interface FlushReport {
  messages: number;
  /** The write's own time. */
  durationMs: number;
  /** From the arrival of the oldest message it wrote to its commit. */
  lagMs: number;
}

/**
 * A message accepted and not yet known to be committed, kept small: its rows are recomputed from
 * the payload when needed (a refused flush, a gateway taken over) rather than held per message.
 */
interface PendingMessage {
  gatewayId: string;
  seq: number;
  topic: string;
  payload: Buffer;
  /** Readings or events dropped at intake (a machine of another gateway); almost always null. */
  skipped: Set<number> | null;
  /** Accepted past a gap the gateway said was gone for good (`floor`). */
  floor: boolean;
  /** Its readings or events: what it weighs against a flush's budget. */
  size: number;
  /**
   * Each machine's snapshot before this message's first reading of it, where a replay starts:
   * SN and snapshot in turn (a flat array: one message of one reading allocates no Map).
   */
  before: (string | MachineSnapshot | undefined)[] | null;
  /** Minutes older than the live window it added to (a late reading): what settles today's peak. */
  late: { sn: string; minute: number }[] | null;
  arrivedAt: number;
}

/** A message that arrived past a gap, parsed, waiting for the gap to close. */
interface HeldMessage {
  topic: string;
  payload: Buffer;
  message: TelemetryMessage | EventsMessage;
}

/** One gateway's message stream, as this instance knows it. */
interface Stream {
  readonly id: string;
  /** Highest seq applied to the live state. */
  accepted: number;
  /** Highest seq known committed (by this instance or another). */
  persisted: number;
  owned: boolean;
  /** Being reconciled with the database: what arrives meanwhile is held. */
  syncing: boolean;
  /** Accepted, not known committed, in seq order. */
  messages: PendingMessage[];
  /** The rows of `messages`, folded as they arrive while owned; null: rebuilt when written. */
  batch: Batch | null;
  held: Map<number, HeldMessage>;
  resumeSent: { next: number; at: number } | null;
  /** Since when messages above `persisted` have waited without a commit or a notice (or null). */
  heldSince: number | null;
  /** When a stale message was last answered with a rejection (at most one a RESUME_EVERY_MS). */
  staleRejectedAt: number;
  ackDue: boolean;
}

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

/** The rows of messages [from, to), in arrival order, without watermarks. */
const batchOf = (messages: readonly ReplayedMessage[], from = 0, to = messages.length) => {
  const batch = emptyBatch();
  for (let i = from; i < to; i++) {
    const message = messages[i]!;
    for (const { sn, ts, effects } of message.readings) addEffects(batch, sn, ts, effects);
    batch.operations.push(...message.operations);
  }
  return batch;
};

/** An unwritten batch put back in front of what arrived since, so a failed flush loses nothing. */
const mergeBatches = (older: Batch, newer: Batch): Batch => {
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

/**
 * Several gateways' batches as one. Their machines are disjoint (a machine has one gateway), so
 * this only gathers; nothing is copied or changed, and each part can still be put back alone.
 */
const gather = (parts: readonly Batch[]): Batch => {
  const all = emptyBatch();
  for (const part of parts) {
    for (const [key, m] of part.minutes) all.minutes.set(key, m);
    all.statusChanges.push(...part.statusChanges);
    all.alarmEdges.push(...part.alarmEdges);
    all.operations.push(...part.operations);
    for (const [sn, s] of part.snapshots) all.snapshots.set(sn, s);
  }
  return all;
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

/** What a flush took from one stream to write. */
interface Taken {
  stream: Stream;
  messages: PendingMessage[];
  batch: Batch;
}

/**
 * Telemetry and events from the gateways, in each gateway's sequence order. A message is applied
 * to the live state at once and, by the instance that owns its gateway (ownership.ts), written
 * with the gateway's watermark by the next flush and acknowledged only after that commit
 * (docs/design.md section 6, end-to-end acknowledgement). Every instance hears every message: the
 * others keep it until the owner's commit shows in the watermark, and write it themselves if they
 * take the gateway over first (docs/architecture.md, "Scale-out").
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
    resumesSent: 0,
    heldNotices: 0,
    intakeHolds: 0,
    fencedWrites: 0,
    streamResyncs: 0,
  };
  readonly #streams = new Map<string, Stream>();
  readonly #ownership: StreamOwnership;
  /** Messages accepted and not known committed, every stream. */
  #pendingCount = 0;
  readonly #reconcileDue = new Set<Stream>();
  #lastPoll = 0;
  #flushing: Promise<void> | null = null;
  #flushStartedAt = 0;
  /** While intake is held: settled when the slow flush ends. */
  #room: { promise: Promise<void>; open: () => void } | null = null;
  /** When #noticeHeld last looked. */
  #noticedAt = 0;
  /** The last flush left owned messages for the next (its budget was full). */
  #more = false;
  #timer: NodeJS.Timeout | null = null;
  #retryAt = 0;
  /** Failed flushes since the last one that wrote: the retry wait grows with these only. */
  #failuresInARow = 0;
  readonly #hooks = new Set<FlushHook>();
  readonly #flushed = new Set<(report: FlushReport) => void>();

  constructor(private readonly deps: IngestorDeps) {
    this.#ownership = deps.ownership ?? ownEverything();
  }

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

  /** Gateways whose streams this instance writes now. */
  get ownedGateways(): number {
    return this.#ownership.owned;
  }

  async #write(batch: Batch, messages: number, since: number) {
    const started = Date.now();
    const stored = await this.deps.repo.writeBatch(batch, async (tx) => {
      for (const hook of this.#hooks) {
        try {
          await hook(tx, batch);
        } catch (error) {
          throw new FlushHookError('a flush hook failed', { cause: error });
        }
      }
    });
    const done = Date.now();
    const report = { messages, durationMs: done - started, lagMs: since ? done - since : 0 };
    for (const listener of this.#flushed) listener(report);
    return stored;
  }

  async start(): Promise<void> {
    for (const [gw, seq] of await this.deps.loadGatewaySeqs()) this.#addStream(gw, seq);
    this.counters.deadLetters = await this.deps.repo.countDeadLetters();
    await this.#ownership.start(this.#owned);
    this.#timer = setInterval(() => {
      this.#noticeHeld();
      void this.flush();
    }, this.deps.flushIntervalMs ?? 100);
  }

  #addStream(id: string, seq: number): Stream {
    const stream: Stream = {
      id,
      accepted: seq,
      persisted: seq,
      owned: false,
      syncing: false,
      messages: [],
      batch: null,
      held: new Map(),
      resumeSent: null,
      heldSince: null,
      staleRejectedAt: 0,
      ackDue: false,
    };
    this.#streams.set(id, stream);
    if (this.#ownership.owns(id)) {
      stream.owned = true;
      // Where others write too, what they committed of it comes first.
      if (this.deps.watermarkPollMs) this.#requestReconcile(stream);
      else stream.batch = emptyBatch();
    }
    return stream;
  }

  /** What ownership tells ingest, and asks of it. */
  readonly #owned: OwnedStreams = {
    ids: () => this.#streams.keys(),
    gained: (ids) => {
      for (const id of ids) {
        const stream = this.#streams.get(id);
        if (!stream) continue;
        stream.owned = true;
        stream.batch = null;
        this.#requestReconcile(stream);
      }
      void this.flush();
    },
    releasing: async (ids) => {
      // What is held of them is written first, so the next owner starts from a fresh watermark.
      await this.flush();
      this.#disown(ids);
      await this.#flushing;
    },
    lost: (ids) => this.#disown(ids),
  };

  #disown(ids: string[]) {
    for (const id of ids) {
      const stream = this.#streams.get(id);
      if (!stream) continue;
      stream.owned = false;
      stream.batch = null;
      stream.ackDue = false;
    }
  }

  /** Adds a gateway registered after start (bind, demo seed). */
  registerGateway(gatewayId: string, seq = 0) {
    if (!this.#streams.has(gatewayId)) this.#addStream(gatewayId, seq);
  }

  persistedSeq(gatewayId: string): number | undefined {
    return this.#streams.get(gatewayId)?.persisted;
  }

  /**
   * A gateway (re)connected: tell it where to continue, so that it resends at once what this
   * server never took (a restart) instead of waiting for its own timer.
   */
  requestAck(gatewayId: string) {
    const stream = this.#streams.get(gatewayId);
    if (stream?.owned && !stream.syncing) this.#resume(stream, true);
  }

  /**
   * Takes one gateway message. A promise while a flush has run past `slowFlushMs`: the broker
   * keeps what gateways send next, before its PUBACK, until the flush ends; a gateway that paces
   * itself by PUBACKs (the agent: at most 100 awaiting) stops sending, its messages kept in its
   * own buffer, while the flush finishes (decision 79).
   */
  handle(topic: string, payload: Buffer): Promise<void> | undefined {
    this.#intake(topic, payload);
    if (
      !this.#flushing ||
      Date.now() - this.#flushStartedAt < (this.deps.slowFlushMs ?? SLOW_FLUSH_MS)
    )
      return undefined;
    if (!this.#room) {
      let open = () => {};
      const promise = new Promise<void>((resolve) => (open = resolve));
      this.#room = { promise, open };
      this.counters.intakeHolds++;
    }
    return this.#room.promise;
  }

  #openRoom() {
    this.#room?.open();
    this.#room = null;
  }

  #intake(topic: string, payload: Buffer): void {
    this.counters.received++;
    const parsed = parseTopic(topic);
    if (!parsed || (parsed.kind !== 'telemetry' && parsed.kind !== 'events')) return;
    const stream = this.#streams.get(parsed.gatewayId);
    if (stream === undefined) {
      this.counters.unknownGateway++;
      return;
    }
    const read = readGatewayMessage(parsed.kind, payload.toString('utf8'), isWholeMessage);
    if (read.problem) {
      this.counters.malformed++;
      this.deps.log.debug({ topic, seq: read.seq, ...read.problem }, 'malformed gateway message');
    }
    if (read.seq === null) {
      if (stream.owned) this.#reject(stream, null, read.problem.detail);
      return;
    }
    const { message } = read;
    // Only what is applied travels on (a replay and a takeover read the same from it).
    const held = {
      topic,
      payload: read.problem ? Buffer.from(JSON.stringify(message)) : payload,
      message,
    };
    if (read.problem && stream.owned && (stream.syncing || message.seq > stream.accepted))
      this.#reject(stream, message.seq, read.problem.detail, read.problem.items);
    if (stream.syncing) {
      this.#hold(stream, held);
      return;
    }
    this.#accept(stream, held);
  }

  /** Tells the gateway a malformed message was not applied, or not whole (docs/protocol.md). */
  #reject(stream: Stream, seq: number | null, detail: string, items?: number[]) {
    const rejected: Rejection = { seq, reason: 'malformed', detail, ...(items && { items }) };
    this.deps.publishAck(stream.id, { seq: stream.persisted, rejected });
  }

  /**
   * A seq the server already has. A resend of a message taken is harmless; a gateway whose counter
   * started again must not read the ack as covering its new messages: it is told they were not
   * applied and where to number from. Once a RESUME_EVERY_MS: a replay can bring thousands.
   */
  #rejectStale(stream: Stream, seq: number) {
    const now = Date.now();
    if (now - stream.staleRejectedAt < RESUME_EVERY_MS) return;
    stream.staleRejectedAt = now;
    const next = stream.accepted + 1;
    const detail =
      `seq ${seq} is not above ${stream.accepted}, the highest this server has taken from this ` +
      `gateway: not applied. If your counter started again, number your messages from ${next}.`;
    this.deps.publishAck(stream.id, {
      seq: stream.persisted,
      next,
      rejected: { seq, reason: 'stale', detail },
    });
  }

  #accept(stream: Stream, held: HeldMessage) {
    const { message } = held;
    if (message.seq <= stream.accepted) {
      this.counters.duplicates++;
      if (stream.owned) {
        stream.ackDue = true;
        this.#rejectStale(stream, message.seq);
      }
      return;
    }
    if (message.seq > stream.accepted + 1 && message.floor !== message.seq) {
      this.counters.outOfOrder++;
      this.#hold(stream, held);
      if (stream.owned) this.#resume(stream, false);
      return;
    }
    this.#apply(stream, held);
    if (stream.held.size > 0) this.#drainHeld(stream);
    if (this.#pendingCount >= FLUSH_AT_MESSAGES) void this.flush();
  }

  #hold(stream: Stream, held: HeldMessage) {
    if (held.message.seq <= stream.accepted && !stream.syncing) return;
    if (stream.held.size < MAX_HELD) stream.held.set(held.message.seq, held);
  }

  /** Applies what was held once the gap before it closed (or the gateway said it never will). */
  #drainHeld(stream: Stream) {
    for (;;) {
      let next = stream.held.get(stream.accepted + 1);
      if (!next) {
        let lowest: HeldMessage | undefined;
        for (const [seq, held] of stream.held) {
          if (seq <= stream.accepted) stream.held.delete(seq);
          else if (!lowest || seq < lowest.message.seq) lowest = held;
        }
        if (!lowest || lowest.message.floor !== lowest.message.seq) break;
        next = lowest;
      }
      stream.held.delete(next.message.seq);
      this.#apply(stream, next);
    }
    if (stream.held.size > 0 && stream.owned) this.#resume(stream, false);
  }

  /** Asks the gateway to resend from what this instance expects next. */
  #resume(stream: Stream, force: boolean) {
    const next = stream.accepted + 1;
    const now = Date.now();
    const sent = stream.resumeSent;
    if (!force && sent && sent.next === next && now - sent.at < RESUME_EVERY_MS) return;
    stream.resumeSent = { next, at: now };
    this.counters.resumesSent++;
    this.deps.publishAck(stream.id, { seq: stream.persisted, next });
  }

  /** Takes the next message of a stream (its seq follows, or a floor says the gap is for good). */
  #apply(stream: Stream, { topic, payload, message }: HeldMessage) {
    if (message.seq > stream.accepted + 1) {
      this.counters.lostByGateway += message.seq - stream.accepted - 1;
      this.deps.log.warn(
        { gateway: stream.id, from: stream.accepted + 1, to: message.seq - 1 },
        'gateway dropped messages from its full buffer',
      );
    }
    if (stream.heldSince === null) stream.heldSince = Date.now();
    stream.accepted = message.seq;
    this.counters.accepted++;
    const pending: PendingMessage = {
      gatewayId: stream.id,
      seq: message.seq,
      topic,
      payload,
      skipped: null,
      floor: message.floor === message.seq,
      size: 'readings' in message ? message.readings.length : message.events.length,
      before: null,
      late: null,
      arrivedAt: Date.now(),
    };
    if ('readings' in message) this.#applyTelemetry(stream, pending, message);
    else this.#applyEvents(stream, pending, message);
    stream.messages.push(pending);
    this.#pendingCount++;
    if (!stream.owned && stream.messages.length > MAX_UNOWNED_PENDING) {
      stream.messages.shift();
      this.#pendingCount--;
    }
  }

  /** One place where a reading becomes effects, for intake and for a replay alike. */
  #effectsOf(previous: MachineSnapshot | undefined, reading: Reading): ReadingEffects {
    // Intake only takes readings of registered machines; one removed since is judged unbounded.
    const limits = this.deps.devices.get(reading.sn) ?? { ppmTarget: 0, maxPpm: null };
    return effectsOf(previous, reading, limits);
  }

  #applyTelemetry(stream: Stream, pending: PendingMessage, message: TelemetryMessage) {
    const windowStart = minuteOf(Date.now()) - RECENT_MINUTES_MS;
    const before: (string | MachineSnapshot | undefined)[] = [];
    // A message rarely holds one machine twice; the set is made only for long ones.
    const seen = message.readings.length > 16 ? new Set<string>() : null;
    message.readings.forEach((reading, i) => {
      if (this.deps.devices.get(reading.sn)?.gatewayId !== stream.id) {
        this.counters.unknownMachine++;
        this.deps.onUnknownMachine?.(stream.id, reading.sn);
        (pending.skipped ??= new Set()).add(i);
        return;
      }
      const previous = this.deps.live.snapshot(reading.sn);
      if (seen ? !seen.has(reading.sn) : !before.includes(reading.sn)) {
        seen?.add(reading.sn);
        before.push(reading.sn, previous);
      }
      const effects = this.#effectsOf(previous, reading);
      if (effects.rebaseline) {
        this.counters.counterRebaselines++;
        this.deps.log.warn(
          { sn: reading.sn, ...effects.rebaseline },
          'implausible counter jump: re-baselined, no parts counted',
        );
      }
      if (stream.batch) addEffects(stream.batch, reading.sn, reading.ts, effects);
      for (const minute of effects.minutes.keys())
        if (minute < windowStart) (pending.late ??= []).push({ sn: reading.sn, minute });
      this.deps.live.apply(reading.sn, effects);
    });
    pending.before = before;
  }

  #applyEvents(stream: Stream, pending: PendingMessage, message: EventsMessage) {
    message.events.forEach((event, i) => {
      if (this.deps.devices.get(event.sn)?.gatewayId !== stream.id) {
        this.counters.unknownMachine++;
        this.deps.onUnknownMachine?.(stream.id, event.sn);
        (pending.skipped ??= new Set()).add(i);
        return;
      }
      stream.batch?.operations.push(operationOf(event));
    });
  }

  /**
   * The effects each message had, recomputed in arrival order from the machines' snapshots before
   * each first reading of them: the same inputs, so the same effects (the payloads passed the
   * schema).
   */
  #replay(messages: readonly PendingMessage[]): ReplayedMessage[] {
    const snapshots = new Map<string, MachineSnapshot | undefined>();
    return messages.map((m) => {
      const before = m.before ?? [];
      for (let i = 0; i < before.length; i += 2) {
        const sn = before[i] as string;
        if (!snapshots.has(sn)) snapshots.set(sn, before[i + 1] as MachineSnapshot | undefined);
      }
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

  /** Reconciles, forgets what others committed, writes what this instance owns, then acks. */
  flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    this.#flushStartedAt = Date.now();
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = null;
      this.#openRoom();
      // A backlog beyond one flush's budget: the next part now, not at the next tick.
      if (this.#more && this.#timer && Date.now() >= this.#retryAt)
        setImmediate(() => void this.flush());
    });
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    try {
      for (const stream of [...this.#reconcileDue]) {
        this.#reconcileDue.delete(stream);
        await this.#reconcile(stream);
      }
      const poll = this.deps.watermarkPollMs;
      if (poll && Date.now() - this.#lastPoll >= poll) {
        this.#lastPoll = Date.now();
        await this.#followWatermarks();
      }
    } catch (error) {
      this.deps.log.error({ err: error }, 'reading gateway watermarks failed; retried');
    }
    if (Date.now() >= this.#retryAt) await this.#writeOwned();
    for (const stream of this.#streams.values()) {
      if (!stream.ackDue) continue;
      stream.ackDue = false;
      if (stream.owned) this.deps.publishAck(stream.id, { seq: stream.persisted });
    }
  }

  /**
   * Tells each gateway whose messages have waited uncommitted HELD_NOTICE_MS (here, owned) that
   * they are received and being written: wait (`received`), so it does not resend them.
   */
  #noticeHeld(now = Date.now()) {
    const after = this.deps.heldNoticeMs ?? HELD_NOTICE_MS;
    if (now - this.#noticedAt < Math.min(after, 500)) return;
    this.#noticedAt = now;
    for (const stream of this.#streams.values()) {
      if (stream.heldSince === null || now - stream.heldSince < after) continue;
      if (stream.accepted <= stream.persisted) {
        stream.heldSince = null;
        continue;
      }
      stream.heldSince = now;
      if (!stream.owned || stream.syncing) continue;
      this.counters.heldNotices++;
      this.deps.publishAck(stream.id, { seq: stream.persisted, received: stream.accepted });
    }
  }

  /**
   * Takes what this instance owns, up to the flush's budget of readings (FLUSH_READINGS): whole
   * gateways in turn, the one that fills the budget cut at a message. Gateways taken go to the
   * back of the turn, so a backlog is written fairly, part after part.
   */
  #take(): Taken[] {
    const budget = this.deps.flushReadings ?? FLUSH_READINGS;
    const taken: Taken[] = [];
    let size = 0;
    this.#more = false;
    for (const stream of this.#streams.values()) {
      if (!stream.owned || stream.syncing || stream.messages.length === 0) continue;
      if (size >= budget) {
        this.#more = true;
        break;
      }
      let n = 0;
      while (n < stream.messages.length && (n === 0 || size < budget))
        size += stream.messages[n++]!.size;
      const messages = stream.messages.slice(0, n);
      if (n === stream.messages.length) {
        taken.push({ stream, messages, batch: stream.batch ?? batchOf(this.#replay(messages)) });
        stream.messages = [];
        stream.batch = emptyBatch();
      } else {
        // The rest's rows are rebuilt from their payloads when written (as after a failed flush).
        taken.push({ stream, messages, batch: batchOf(this.#replay(messages)) });
        stream.messages = stream.messages.slice(n);
        stream.batch = null;
        this.#more = true;
      }
      this.#pendingCount -= n;
    }
    for (const { stream } of taken) {
      this.#streams.delete(stream.id);
      this.#streams.set(stream.id, stream);
    }
    return taken;
  }

  async #writeOwned(): Promise<void> {
    const taken = this.#take();
    if (taken.length === 0) return;
    const count = taken.reduce((n, t) => n + t.messages.length, 0);
    const since = Math.min(...taken.map((t) => t.messages[0]!.arrivedAt));
    let unwritten: PendingMessage[] | null = null;
    try {
      try {
        const batch = gather(taken.map((t) => t.batch));
        for (const { stream, messages } of taken)
          batch.gatewaySeq.set(stream.id, {
            expected: stream.persisted,
            seq: messages.at(-1)!.seq,
          });
        this.deps.live.settle(await this.#write(batch, count, since));
        this.counters.flushes++;
        for (const { stream, messages } of taken) this.#committed(stream, messages.at(-1)!.seq);
      } catch (error) {
        if (!isDataError(error)) throw error;
        const replayed = taken.flatMap((t) => this.#replay(t.messages));
        const progress = { done: 0 };
        try {
          await this.#writeRange(replayed, 0, replayed.length, progress, since);
        } catch (failure) {
          unwritten = replayed.slice(progress.done);
          throw failure;
        }
      }
      this.#failuresInARow = 0;
    } catch (error) {
      if (unwritten) this.#putBackMessages(unwritten);
      else for (const t of taken) this.#putBack(t);
      if (error instanceof FenceError) {
        // Another instance wrote these gateways: find out what it committed, then go on.
        this.counters.fencedWrites++;
        for (const id of error.gatewayIds) {
          const stream = this.#streams.get(id);
          if (stream) this.#requestReconcile(stream);
        }
        return;
      }
      this.counters.flushFailures++;
      this.#failuresInARow++;
      this.#retryAt = Date.now() + Math.min(30_000, 500 * 2 ** Math.min(this.#failuresInARow, 6));
      this.deps.log.error(
        { err: error },
        'writing telemetry failed; kept in memory and retried, nothing acknowledged',
      );
    }
  }

  /** A taken part put back in front of what arrived since, its rows with it. */
  #putBack({ stream, messages, batch }: Taken) {
    stream.messages = messages.concat(stream.messages);
    this.#pendingCount += messages.length;
    stream.batch = stream.owned && stream.batch ? mergeBatches(batch, stream.batch) : null;
  }

  /** Messages put back without their rows (recomputed when next written). */
  #putBackMessages(messages: readonly PendingMessage[]) {
    const byStream = new Map<string, PendingMessage[]>();
    for (const m of messages) {
      const list = byStream.get(m.gatewayId);
      if (list) list.push(m);
      else byStream.set(m.gatewayId, [m]);
    }
    for (const [id, list] of byStream) {
      const stream = this.#streams.get(id);
      if (!stream) continue;
      stream.messages = list.concat(stream.messages);
      this.#pendingCount += list.length;
      stream.batch = null;
    }
  }

  #committed(stream: Stream, seq: number) {
    stream.persisted = Math.max(stream.persisted, seq);
    stream.ackDue = true;
    // Progress: what is still held waits afresh before a notice.
    stream.heldSince = stream.accepted > stream.persisted ? Date.now() : null;
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
      const batch = batchOf(messages, from, to);
      for (let i = from; i < to; i++) {
        const { gatewayId, seq } = messages[i]!;
        const expected = this.#streams.get(gatewayId)!.persisted;
        batch.gatewaySeq.set(gatewayId, { expected, seq });
      }
      this.deps.live.settle(await this.#write(batch, to - from, since));
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
    for (let i = from; i < to; i++) {
      const { gatewayId, seq } = messages[i]!;
      this.#committed(this.#streams.get(gatewayId)!, seq);
    }
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
      expected: this.#streams.get(message.gatewayId)!.persisted,
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

  #requestReconcile(stream: Stream) {
    stream.syncing = true;
    this.#reconcileDue.add(stream);
  }

  /**
   * Brings a stream in line with what the database committed: forgets what is committed; if
   * another instance committed what this one never saw, reloads its machines' live state from the
   * database; and, owning it, asks the gateway to resend from what is missing here.
   */
  async #reconcile(stream: Stream): Promise<void> {
    const sns = this.deps.devices.snsOfGateway(stream.id);
    try {
      let state = await this.deps.repo.loadStream(stream.id, sns, stream.accepted);
      if (!state) {
        this.#pendingCount -= stream.messages.length;
        this.#streams.delete(stream.id);
        return;
      }
      const late = this.#forget(stream, state.seq);
      const first = stream.messages[0];
      const hole =
        stream.owned &&
        !state.seed &&
        (first ? first.seq !== state.seq + 1 && !first.floor : stream.accepted > state.seq);
      // A hole: what came between the watermark and what is held here never reached this instance.
      if (hole) state = await this.deps.repo.loadStream(stream.id, sns, -1);
      if (state?.seed) {
        this.deps.live.replace(sns, state.seed);
        this.#pendingCount -= stream.messages.length;
        stream.messages = [];
        stream.accepted = state.seq;
        stream.persisted = state.seq;
        this.counters.streamResyncs++;
      }
      stream.batch = stream.owned && stream.messages.length === 0 ? emptyBatch() : null;
      await this.#settleLate(late);
    } finally {
      stream.syncing = false;
    }
    this.#drainHeld(stream);
    if (stream.owned) this.#resume(stream, true);
  }

  /** Forgets the messages up to `seq` (committed); returns the late minutes they touched. */
  #forget(stream: Stream, seq: number): { sn: string; minute: number }[] {
    stream.persisted = Math.max(stream.persisted, seq);
    let n = 0;
    while (n < stream.messages.length && stream.messages[n]!.seq <= seq) n++;
    if (n === 0) return [];
    const late = stream.messages.slice(0, n).flatMap((m) => m.late ?? []);
    stream.messages = stream.messages.slice(n);
    this.#pendingCount -= n;
    stream.batch = null;
    return late;
  }

  /** Today's peak as the database holds it after another instance wrote late minutes. */
  async #settleLate(late: { sn: string; minute: number }[]) {
    if (late.length === 0) return;
    this.deps.live.settle(await this.deps.repo.storedMinutes(late), Date.now(), false);
  }

  /** What other instances committed: forgotten here; a stream this one fell behind on, reloaded. */
  async #followWatermarks() {
    const marks = await this.deps.repo.loadWatermarks();
    const late: { sn: string; minute: number }[] = [];
    for (const [id, seq] of marks) {
      const stream = this.#streams.get(id) ?? this.#addStream(id, seq);
      if (stream.syncing) continue;
      if (stream.owned) {
        if (seq !== stream.persisted) this.#requestReconcile(stream);
      } else if (seq > stream.accepted) this.#requestReconcile(stream);
      else late.push(...this.#forget(stream, seq));
    }
    await this.#settleLate(late);
  }

  /** Stops intake timing, writes what is left and gives up the gateways (graceful shutdown). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#retryAt = 0;
    await this.#flushing;
    // Part after part while each writes something (not when the database is gone).
    for (let before = Infinity; this.#pendingCount > 0 && this.#pendingCount < before;) {
      before = this.#pendingCount;
      await this.flush();
    }
    await this.#ownership.stop();
  }
}
