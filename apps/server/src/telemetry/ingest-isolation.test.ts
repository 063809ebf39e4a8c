import { topicOf, type EventsMessage, type TelemetryMessage } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceRegistry } from '../core/device-registry.ts';
import { reading } from '../test/gateway.ts';
import { Ingestor } from './ingest.ts';
import { LiveState } from '../core/live-state.ts';
import type { Batch, TelemetryRepository } from './repository.ts';

type Letter = Parameters<TelemetryRepository['writeDeadLetter']>[0];

/** An Ingestor over a repository that refuses, as PostgreSQL would, any batch holding `refused`. */
const setup = (
  refused: (batch: Batch) => boolean,
  {
    flushReadings,
    heldNoticeMs,
    flushIntervalMs = 3_600_000,
    slowFlushMs,
  }: {
    flushReadings?: number;
    heldNoticeMs?: number;
    flushIntervalMs?: number;
    slowFlushMs?: number;
  } = {},
) => {
  const written: Batch[] = [];
  const letters: Letter[] = [];
  const acks: { gw: string; seq: number }[] = [];
  /** Writes and acks in the order they happened. */
  const log: string[] = [];
  /** While set, a write waits for it (a database that is slow to commit). */
  const state = { failure: null as Error | null, slow: null as Promise<void> | null };
  const repo = {
    countDeadLetters: async () => 0,
    writeBatch: async (batch: Batch) => {
      if (state.slow) await state.slow;
      if (state.failure) throw state.failure;
      if (refused(batch)) {
        throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
          code: '22021',
        });
      }
      written.push(batch);
      log.push(`write ${[...batch.gatewaySeq].map(([gw, { seq }]) => `${gw}${seq}`).join(' ')}`);
      return [];
    },
    writeDeadLetter: async (letter: Letter) => {
      letters.push(letter);
    },
  } as unknown as TelemetryRepository;
  const devices = {
    get: (sn: string) => ({ gatewayId: sn.slice(0, 1), ppmTarget: 0, maxPpm: null }),
  };
  const quiet = () => undefined;
  const ingestor = new Ingestor({
    repo,
    loadGatewaySeqs: async () => new Map([...'ABC'].map((gw) => [gw, 0])),
    live: new LiveState('Asia/Shanghai'),
    devices: devices as unknown as DeviceRegistry,
    publishAck: (gw, { seq, received }) => {
      if (received !== undefined) return log.push(`received ${gw}${received} (committed ${seq})`);
      acks.push({ gw, seq });
      log.push(`ack ${gw}${seq}`);
    },
    log: { error: quiet, warn: quiet, debug: quiet } as unknown as FastifyBaseLogger,
    flushIntervalMs,
    ...(flushReadings && { flushReadings }),
    ...(heldNoticeMs && { heldNoticeMs }),
    ...(slowFlushMs && { slowFlushMs }),
  });
  const lastAck = (gw: string) => acks.filter((a) => a.gw === gw).at(-1)?.seq;
  const send = (gw: string, message: TelemetryMessage | EventsMessage) => {
    const kind = 'readings' in message ? 'telemetry' : 'events';
    const payload = Buffer.from(JSON.stringify(message));
    held = ingestor.handle(topicOf(gw, kind), payload);
    return payload;
  };
  /** What the last message's intake said: a promise while the broker is to hold what follows. */
  let held: Promise<void> | undefined;
  const telemetry = (gw: string, seq: number, produced: number) =>
    send(gw, { seq, readings: [reading(`${gw}-m1`, { produced })] });
  const operation = (gw: string, seq: number, comment: string) =>
    send(gw, {
      seq,
      events: [
        { type: 'operation', sn: `${gw}-m1`, ts: Date.now(), comment, setValue: '1', user: 'u' },
      ],
    });
  return {
    ingestor,
    written,
    letters,
    lastAck,
    send,
    telemetry,
    operation,
    state,
    log,
    held: () => held,
  };
};

const holdsPoison = (batch: Batch) => batch.operations.some((o) => o.comment.includes('poison'));

describe('a flush the database refuses', () => {
  it('finds the refused messages by halving, dead-letters them and writes every other one', async () => {
    const t = setup(holdsPoison);
    await t.ingestor.start();
    t.telemetry('A', 1, 100);
    t.telemetry('B', 1, 500);
    const poisonA = t.operation('A', 2, 'poison A');
    t.telemetry('B', 2, 510);
    t.telemetry('C', 1, 7);
    t.operation('A', 3, 'fine');
    const poisonC = t.operation('C', 2, 'poison C');
    t.telemetry('B', 3, 520);
    // B's machine in A's message is dropped at intake, and must stay dropped in the replay.
    t.send('A', {
      seq: 4,
      readings: [reading('A-m1', { produced: 130 }), reading('B-m1', { produced: 9_999 })],
    });
    await t.ingestor.flush();

    expect(t.letters).toEqual([
      expect.objectContaining({ gatewayId: 'A', seq: 2, topic: topicOf('A', 'events') }),
      expect.objectContaining({ gatewayId: 'C', seq: 2, topic: topicOf('C', 'events') }),
    ]);
    expect(Buffer.from(t.letters[0]!.payload).equals(poisonA)).toBe(true);
    expect(Buffer.from(t.letters[1]!.payload).equals(poisonC)).toBe(true);
    expect(t.letters[0]!.error).toMatch(/0x00/);
    expect(t.ingestor.counters.deadLetters).toBe(2);
    // Every gateway is acknowledged up to its last message, the dead letters included.
    expect([t.lastAck('A'), t.lastAck('B'), t.lastAck('C')]).toEqual([4, 3, 2]);
    expect(t.ingestor.persistedSeq('A')).toBe(4);

    // Everything else was written, in arrival order, each message once.
    const comments = t.written.flatMap((b) => b.operations.map((o) => o.comment));
    expect(comments).toEqual(['fine']);
    const produced = (sn: string) =>
      t.written
        .flatMap((b) => [...b.minutes.values()])
        .filter((m) => m.sn === sn)
        .reduce((sum, m) => sum + m.figures.produced, 0);
    expect([produced('A-m1'), produced('B-m1')]).toEqual([30, 20]);
    const watermarks = t.written.flatMap((b) => [...b.gatewaySeq].filter(([gw]) => gw === 'B'));
    expect(watermarks.map(([, seq]) => seq)).toEqual([...watermarks.map(([, s]) => s)].sort());
    // Halving, not one transaction per message: 9 messages, 2 refused.
    expect(t.written.length).toBeLessThan(9);
    await t.ingestor.stop();
  });

  it('keeps a batch and acknowledges nothing when the database is unreachable, not refusing', async () => {
    const t = setup(() => false);
    await t.ingestor.start();
    t.telemetry('A', 1, 100);
    t.operation('A', 2, 'fine');
    t.state.failure = new Error('Connection terminated unexpectedly');
    await t.ingestor.flush();
    expect(t.letters).toEqual([]);
    expect(t.lastAck('A')).toBeUndefined();
    expect(t.ingestor.counters.flushFailures).toBe(1);

    t.state.failure = null;
    t.telemetry('A', 3, 120);
    await t.ingestor.stop();
    expect(t.lastAck('A')).toBe(3);
    expect(t.written.flatMap((b) => b.operations.map((o) => o.comment))).toEqual(['fine']);
  });

  describe('retry backoff', () => {
    afterEach(() => vi.useRealTimers());

    it('starts again from a short wait after a success, whatever failed before', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const t = setup(() => false);
      await t.ingestor.start();
      t.state.failure = new Error('Connection terminated unexpectedly');
      // A long outage: seven failed flushes, each retried once its wait (up to 30 s) is over.
      for (let seq = 1; seq <= 7; seq++) {
        t.telemetry('A', seq, seq * 10);
        await t.ingestor.flush();
        vi.advanceTimersByTime(30_000);
      }
      expect(t.ingestor.counters.flushFailures).toBe(7);
      t.state.failure = null;
      await t.ingestor.flush();
      expect(t.lastAck('A')).toBe(7);

      // One failure after the recovery waits about a second, not the outage's 30 s.
      t.state.failure = new Error('Connection terminated unexpectedly');
      t.telemetry('A', 8, 80);
      await t.ingestor.flush();
      t.state.failure = null;
      vi.advanceTimersByTime(1_500);
      await t.ingestor.flush();
      expect(t.lastAck('A')).toBe(8);
      await t.ingestor.stop();
    });
  });
});

// The review saw one flush of a loaded database's backlog outlast the gateways' 10 s ack timeout:
// they resent whole windows and nothing was acknowledged any more (issue 27).
describe('a backlog beyond one flush', () => {
  it('is written part after part, each acknowledged as it commits, the gateways in turn', async () => {
    const t = setup(() => false, { flushReadings: 4 });
    await t.ingestor.start();
    for (let seq = 1; seq <= 6; seq++) for (const gw of 'ABC') t.telemetry(gw, seq, 100 + seq * 10);
    await t.ingestor.flush();
    // The first part alone, then the rest at once, without waiting for the next tick.
    expect(t.log.slice(0, 2)).toEqual(['write A4', 'ack A4']);
    await vi.waitFor(
      () => expect([t.lastAck('A'), t.lastAck('B'), t.lastAck('C')]).toEqual([6, 6, 6]),
      { timeout: 10_000 },
    );
    expect(t.log).toEqual([
      'write A4',
      'ack A4',
      'write B4',
      'ack B4',
      'write C4',
      'ack C4',
      'write A6 B6',
      'ack A6',
      'ack B6',
      'write C6',
      'ack C6',
    ]);
    // Every reading once: cut between parts, the counters still add up.
    const produced = (sn: string) =>
      t.written
        .flatMap((b) => [...b.minutes.values()])
        .filter((m) => m.sn === sn)
        .reduce((sum, m) => sum + m.figures.produced, 0);
    expect(['A-m1', 'B-m1', 'C-m1'].map(produced)).toEqual([50, 50, 50]);
    await t.ingestor.stop();
  });

  it('writes a whole backlog on stop, part after part', async () => {
    const t = setup(() => false, { flushReadings: 2 });
    await t.ingestor.start();
    for (let seq = 1; seq <= 5; seq++) t.telemetry('A', seq, 100 + seq);
    await t.ingestor.stop();
    expect(t.log.filter((line) => line.startsWith('write'))).toEqual([
      'write A2',
      'write A4',
      'write A5',
    ]);
    expect(t.lastAck('A')).toBe(5);
  });

  it('tells a gateway its messages are received while their write is slow, and stops once committed', async () => {
    const t = setup(() => false, { heldNoticeMs: 40, flushIntervalMs: 10 });
    let commit = () => {};
    t.state.slow = new Promise<void>((resolve) => (commit = resolve));
    await t.ingestor.start();
    for (let seq = 1; seq <= 3; seq++) t.telemetry('A', seq, 100 + seq);
    // Told, and told again while the write lasts: every message to 3 received, none committed.
    const notices = () => t.log.filter((l) => l.startsWith('received'));
    await vi.waitFor(() => expect(notices().length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(new Set(notices())).toEqual(new Set(['received A3 (committed 0)']));
    expect(t.lastAck('A')).toBeUndefined();
    t.state.slow = null;
    commit();
    await vi.waitFor(() => expect(t.lastAck('A')).toBe(3), { timeout: 10_000 });
    const after = t.log.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Committed: no more notices (and B and C, which sent nothing, never had one).
    expect(t.log.slice(after)).toEqual([]);
    expect(t.log.filter((l) => / [BC]/.test(l))).toEqual([]);
    await t.ingestor.stop();
  });
});

// Under ten CPU hogs the server read messages as fast as gateways sent them while each round trip
// of its flush waited behind them: one flush of 100 readings took 20 s (issue 27).
describe('a slow flush', () => {
  it('holds intake once it has run slowFlushMs, and lets it go when it ends', async () => {
    const t = setup(() => false, { slowFlushMs: 50 });
    let commit = () => {};
    t.state.slow = new Promise<void>((resolve) => (commit = resolve));
    await t.ingestor.start();
    t.telemetry('A', 1, 101);
    const flushed = t.ingestor.flush();
    // A flush that has just started holds nothing.
    t.telemetry('A', 2, 102);
    expect(t.held()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.telemetry('A', 3, 103);
    const hold = t.held();
    expect(hold).toBeInstanceOf(Promise);
    // Taken all the same: the hold is for what comes next.
    expect(t.ingestor.counters.accepted).toBe(3);
    expect(t.ingestor.counters.intakeHolds).toBe(1);
    let released = false;
    void hold!.then(() => (released = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(released).toBe(false);
    t.state.slow = null;
    commit();
    await flushed;
    await vi.waitFor(() => expect(released).toBe(true), { timeout: 10_000 });
    t.telemetry('A', 4, 104);
    expect(t.held()).toBeUndefined();
    await t.ingestor.stop();
    expect(t.lastAck('A')).toBe(4);
  });
});
