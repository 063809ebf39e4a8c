import {
  eventsMessage,
  parseTopic,
  telemetryMessage,
  type EventsMessage,
  type TelemetryMessage,
} from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceRegistry } from '../devices/device-registry.ts';
import type { LiveState } from './live-state.ts';
import { addFigures } from '../shared/metrics.ts';
import { effectsOf, type ReadingEffects } from './reading-effects.ts';
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
    counterRebaselines: 0,
  };
  /** Highest seq applied in memory, per gateway. */
  readonly #accepted = new Map<string, number>();
  /** Highest seq committed to the database, per gateway. */
  readonly #persisted = new Map<string, number>();
  readonly #ackDue = new Set<string>();
  #pending = emptyBatch();
  #pendingMessages = 0;
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #retryAt = 0;

  constructor(private readonly deps: IngestorDeps) {}

  async start(): Promise<void> {
    for (const [gw, seq] of await this.deps.loadGatewaySeqs()) {
      this.#accepted.set(gw, seq);
      this.#persisted.set(gw, seq);
    }
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
    this.#pending.gatewaySeq.set(gw, message.seq);
    this.counters.accepted++;
    if ('readings' in message) this.#applyTelemetry(gw, message);
    else this.#applyEvents(gw, message);
    if (++this.#pendingMessages >= FLUSH_AT_MESSAGES) void this.flush();
  }

  #applyTelemetry(gw: string, message: TelemetryMessage) {
    const batch = this.#pending;
    for (const reading of message.readings) {
      const device = this.deps.devices.get(reading.sn);
      if (device?.gatewayId !== gw) {
        this.counters.unknownMachine++;
        continue;
      }
      const effects = effectsOf(this.deps.live.snapshot(reading.sn), reading, device);
      if (effects.rebaseline) {
        this.counters.counterRebaselines++;
        batch.operations.push(rebaselineOperation(reading.sn, reading.ts, effects.rebaseline));
        this.deps.log.warn(
          { sn: reading.sn, ...effects.rebaseline },
          'implausible counter jump: re-baselined, no parts counted',
        );
      }
      for (const [minute, figures] of effects.minutes) {
        const key = `${reading.sn}|${minute}`;
        const existing = batch.minutes.get(key);
        if (existing) addFigures(existing.figures, figures);
        else batch.minutes.set(key, { sn: reading.sn, minute, figures });
      }
      if (effects.statusChange)
        batch.statusChanges.push({ sn: reading.sn, ...effects.statusChange });
      for (const a of effects.alarmsRaised)
        batch.alarmEdges.push({ sn: reading.sn, code: a.code, ts: a.ts, active: true });
      for (const a of effects.alarmsCleared)
        batch.alarmEdges.push({ sn: reading.sn, code: a.code, ts: a.ts, active: false });
      batch.snapshots.set(reading.sn, effects.snapshot);
      this.deps.live.apply(reading.sn, effects);
    }
  }

  #applyEvents(gw: string, message: EventsMessage) {
    for (const event of message.events) {
      if (this.deps.devices.get(event.sn)?.gatewayId !== gw) {
        this.counters.unknownMachine++;
        continue;
      }
      this.#pending.operations.push({
        sn: event.sn,
        ts: event.ts,
        comment: event.comment,
        setValue: event.setValue,
        user: event.user,
      });
    }
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
    const batch = this.#pending;
    if (batch.gatewaySeq.size > 0 && Date.now() >= this.#retryAt) {
      this.#pending = emptyBatch();
      this.#pendingMessages = 0;
      try {
        const stored = await this.deps.repo.writeBatch(batch);
        this.deps.live.settle(stored);
        this.counters.flushes++;
        for (const [gw, seq] of batch.gatewaySeq) {
          this.#persisted.set(gw, seq);
          this.#ackDue.add(gw);
        }
      } catch (error) {
        this.counters.flushFailures++;
        this.#retryAt =
          Date.now() + Math.min(30_000, 500 * 2 ** Math.min(this.counters.flushFailures, 6));
        this.deps.log.error(
          { err: error },
          'writing telemetry failed; kept in memory and retried, nothing acknowledged',
        );
        this.#pending = mergeBatches(batch, this.#pending);
      }
    }
    for (const gw of this.#ackDue) this.deps.publishAck(gw, this.#persisted.get(gw) ?? 0);
    this.#ackDue.clear();
  }

  /** Stops intake timing and writes what is left (graceful shutdown). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#retryAt = 0;
    await this.flush();
    if (this.#pending.gatewaySeq.size > 0) await this.flush();
  }
}
