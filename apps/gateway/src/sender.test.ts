import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineBuffer } from './buffer/offline-buffer.ts';
import { Sender } from './sender.ts';

const quiet = { info: () => undefined, warn: () => undefined };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) step();
});

/** A sender over a real buffer of `count` messages, on a link that records what it publishes. */
const setup = (
  count: number,
  { newCounter = false, ackTimeoutMs = 3_600_000, brokerHolds = false } = {},
) => {
  const dir = mkdtempSync(join(tmpdir(), 'lw-sender-'));
  const buffer = OfflineBuffer.open(dir, { maxMessages: 1000 });
  // A counter the server has answered before, unless the test is about a new one.
  if (!newCounter) buffer.confirmCounter(0);
  for (let seq = 1; seq <= count; seq++)
    buffer.append({
      seq,
      kind: 'telemetry',
      payload: JSON.stringify({ seq, reading: `r${seq}` }),
      at: Date.now(),
    });
  const published: number[] = [];
  /** What each published message carried besides its seq. */
  const contents: string[] = [];
  /** With brokerHolds, PUBACKs come only when the test gives them. */
  const pubacks: (() => void)[] = [];
  const sender = new Sender({
    buffer,
    publish: async (_kind, payload) => {
      const message = JSON.parse(payload) as { seq: number; reading: string };
      published.push(message.seq);
      contents.push(message.reading);
      if (brokerHolds) await new Promise<void>((resolve) => pubacks.push(resolve));
    },
    // Far beyond the test unless it says otherwise: any resend seen here was asked for by the
    // server, not by a timer.
    ackTimeoutMs,
    log: quiet,
  });
  cleanups.push(() => {
    sender.stop();
    buffer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const ack = (body: object) => sender.onAck(Buffer.from(JSON.stringify(body)));
  const puback = () => pubacks.splice(0).forEach((give) => give());
  return { sender, buffer, published, contents, ack, puback, dir };
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the server says where to resume (ack with next)', () => {
  it('resends from `next` at once, keeping what is below it until acknowledged', async () => {
    const { sender, buffer, published, ack } = setup(10);
    sender.start(sender.connected());
    await settle();
    expect(published).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The server committed 3, holds 4–5 uncommitted, and never got 6 on.
    ack({ seq: 3, next: 6 });
    await settle();
    expect(published.slice(10)).toEqual([6, 7, 8, 9, 10]);
    expect(buffer.oldestSeq).toBe(4);
  });

  it('does nothing on a plain ack that does not advance', async () => {
    const { sender, published, ack } = setup(5);
    sender.start(sender.connected());
    await settle();
    ack({ seq: 0 });
    await settle();
    expect(published).toEqual([1, 2, 3, 4, 5]);
  });

  it('skips what the server already has when it asks for later messages', async () => {
    const { sender, published, ack } = setup(5);
    const round = sender.connected();
    ack({ seq: 0, next: 4 });
    sender.start(round);
    await settle();
    expect(published).toEqual([4, 5]);
  });
});

describe('the server has seqs above any this gateway numbered (its counter was lost)', () => {
  it('numbers what it holds again from `next` on a stale rejection, losing nothing', async () => {
    const { sender, buffer, published, contents, ack, dir } = setup(3);
    sender.start(sender.connected());
    await settle();
    expect(published).toEqual([1, 2, 3]);

    ack({ seq: 39, next: 40, rejected: { seq: 1, reason: 'stale', detail: 'not applied' } });
    await settle();
    expect(published.slice(3)).toEqual([40, 41, 42]);
    expect(contents.slice(3)).toEqual(['r1', 'r2', 'r3']);
    expect(buffer.size).toBe(3);
    expect(buffer.oldestSeq).toBe(40);
    expect(buffer.nextSeq).toBe(43);

    // Renumbered on disk too: a restarted agent resends 40–42, not 1–3.
    buffer.close();
    const reopened = OfflineBuffer.open(dir, { maxMessages: 1000 });
    const seqs = [];
    for (let m = reopened.nextFrom(0); m; m = reopened.nextFrom(m.seq + 1))
      seqs.push((JSON.parse(m.payload) as { seq: number }).seq);
    expect(seqs).toEqual([40, 41, 42]);
    reopened.close();
  });

  it('does not read a plain ack above its own counter as covering its messages', async () => {
    const { sender, buffer, published, ack } = setup(2);
    sender.start(sender.connected());
    await settle();
    ack({ seq: 39 });
    await settle();
    expect(published.slice(2)).toEqual([40, 41]);
    expect(buffer.size).toBe(2);
    ack({ seq: 41 });
    expect(buffer.size).toBe(0);
  });

  it('drops a resend the server already has on a stale rejection, numbering nothing again', async () => {
    const { sender, buffer, published, ack } = setup(5);
    sender.start(sender.connected());
    await settle();
    ack({ seq: 3, next: 6, rejected: { seq: 2, reason: 'stale', detail: 'not applied' } });
    await settle();
    expect(published).toEqual([1, 2, 3, 4, 5]);
    expect(buffer.oldestSeq).toBe(4);
    expect(buffer.nextSeq).toBe(6);
  });
});

describe('a stale rejection of a resend (docs/protocol.md § 4.6: nothing to do)', () => {
  // Under a loaded database the server had taken 1–3 and committed 1 when the ack timeout
  // resent 2–5; 4 and 5 were still on their way. Resending from `next` on this answer sent them a
  // third time, each duplicate drew another rejection a second, and the rounds never ended
  // (issue 27's review: 205–298K duplicates, nothing acknowledged).
  it('starts no round: what it sent is on its way and an ack will cover it', async () => {
    const { sender, buffer, published, ack } = setup(5);
    sender.start(sender.connected());
    await settle();
    ack({ seq: 1, next: 4, rejected: { seq: 2, reason: 'stale', detail: 'not applied' } });
    await settle();
    expect(published).toEqual([1, 2, 3, 4, 5]);
    expect(buffer.oldestSeq).toBe(2);
    ack({ seq: 5 });
    expect(buffer.size).toBe(0);
  });
});

describe('the server says it holds what was sent and is still writing it (received)', () => {
  it('resends nothing while told so, and resends at its ack timeout once the notices stop', async () => {
    const { sender, published, ack } = setup(3, { ackTimeoutMs: 1000 });
    sender.start(sender.connected());
    await settle();
    expect(published).toEqual([1, 2, 3]);
    // Told every 100 ms for 3 s, three ack timeouts.
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ack({ seq: 0, received: 3 });
    }
    expect(published).toEqual([1, 2, 3]);
    await vi.waitFor(() => expect(published.slice(3, 6)).toEqual([1, 2, 3]), { timeout: 10_000 });
  }, 20_000);
});

// Under ten CPU hogs the embedded broker held PUBACKs while the server finished a slow flush;
// gateways whose ack timer ran out meanwhile sent the held messages again (issue 27).
describe('the broker has not taken what was sent (no PUBACK yet)', () => {
  it('resends nothing while PUBACKs are awaited, and resends at its ack timeout once they came', async () => {
    const { sender, published, puback } = setup(3, { ackTimeoutMs: 100, brokerHolds: true });
    sender.start(sender.connected());
    await settle();
    expect(published).toEqual([1, 2, 3]);
    // Ten ack timeouts with every message still awaiting its PUBACK.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(published).toEqual([1, 2, 3]);
    puback();
    await vi.waitFor(() => expect(published.slice(3, 6)).toEqual([1, 2, 3]), { timeout: 10_000 });
  });
});

describe('a new buffer directory: a counter of unknown history', () => {
  it('sends nothing until the server answers, then numbers what it holds after the server', async () => {
    // The disk was replaced: the counter starts at 1 while the server has taken 1–3 from this
    // gateway's earlier life. Sent at once, 1–3 would be discarded as stale and 4–5 taken: the
    // ack of 5 would cover the readings r1–r3 that never were applied.
    const { sender, buffer, published, contents, ack } = setup(5, { newCounter: true });
    const round = sender.connected();
    sender.start(round);
    await settle();
    expect(published).toEqual([]);
    ack({ seq: 3, next: 4 });
    await settle();
    expect(published).toEqual([4, 5, 6, 7, 8]);
    expect(contents).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(buffer.counterConfirmed).toBe(true);
    expect(buffer.nextSeq).toBe(9);
  });

  it('a gateway the server never heard of keeps its numbers', async () => {
    const { sender, published, ack } = setup(3, { newCounter: true });
    const round = sender.connected();
    ack({ seq: 0, next: 1 });
    sender.start(round);
    await settle();
    expect(published).toEqual([1, 2, 3]);
  });

  it('still waits after its own restart before the answer', async () => {
    const { buffer, dir } = setup(2, { newCounter: true });
    buffer.close();
    const reopened = OfflineBuffer.open(dir, { maxMessages: 1000 });
    cleanups.push(() => reopened.close());
    expect(reopened.counterConfirmed).toBe(false);
    expect(reopened.size).toBe(2);
  });

  it('sends without an answer once ackTimeoutMs has passed (a server that is down)', async () => {
    const { sender, published } = setup(3, { newCounter: true, ackTimeoutMs: 40 });
    sender.start(sender.connected());
    // The first round; later ones follow every timeout while nothing answers (a loaded machine
    // may show several before it looks).
    await vi.waitFor(() => expect(published.slice(0, 3)).toEqual([1, 2, 3]), { timeout: 10_000 });
  });
});
