import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onCleanup, runCleanups, tempDir } from '../testing.ts';
import { BufferDirInUseError, OfflineBuffer, type BufferedMessage } from './offline-buffer.ts';

const T0 = Date.UTC(2026, 0, 1);

const message = (seq: number): BufferedMessage => ({
  seq,
  kind: seq % 3 === 0 ? 'events' : 'telemetry',
  payload: JSON.stringify({ seq, readings: [{ n: seq }] }),
  // One a minute.
  at: T0 + seq * 60_000,
});

const fill = (buffer: OfflineBuffer, count: number) => {
  for (let i = 0; i < count; i++) buffer.append(message(buffer.nextSeq));
};

const contents = (buffer: OfflineBuffer): BufferedMessage[] => {
  const out: BufferedMessage[] = [];
  for (let next = buffer.nextFrom(0); next; next = buffer.nextFrom(next.seq + 1)) out.push(next);
  return out;
};

/** from..to, both included. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const segmentFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('seg-'));

/** Leaves the lock file as a killed process would: held by a pid that no longer exists. */
const abandon = (dir: string) => {
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
  fs.writeFileSync(path.join(dir, 'lock'), String(deadPid));
};

describe('OfflineBuffer', () => {
  afterEach(runCleanups);

  it('numbers from 1 and keeps messages, in order, across a reopen', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(buffer.nextSeq).toBe(1);
    fill(buffer, 5);
    buffer.close();

    const reopened = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(contents(reopened)).toEqual([1, 2, 3, 4, 5].map(message));
    expect(reopened.nextSeq).toBe(6);
    reopened.close();
  });

  it('survives a killed process, skipping a torn last line', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 100, messagesPerSegment: 2 });
    fill(buffer, 3);
    const [last] = segmentFiles(dir).sort().reverse();
    fs.appendFileSync(path.join(dir, last!), '{"seq":4,"kind":"telem');
    abandon(dir);
    // The killed process's buffer is only let go of at the end (its timers would outlive the dir).
    onCleanup(() => buffer.close());

    const reopened = OfflineBuffer.open(dir, { maxMessages: 100, messagesPerSegment: 2 });
    expect(contents(reopened)).toEqual([1, 2, 3].map(message));
    fill(reopened, 2);
    reopened.close();

    const again = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(contents(again).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    again.close();
  });

  it('refuses a directory another open buffer holds', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 10 });
    expect(() => OfflineBuffer.open(dir, { maxMessages: 10 })).toThrow(BufferDirInUseError);
    buffer.close();
    OfflineBuffer.open(dir, { maxMessages: 10 }).close();
  });

  it('takes over a lock left by an earlier run with the same pid (container restart)', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'lock'), String(process.pid));
    const buffer = OfflineBuffer.open(dir, { maxMessages: 10 });
    fill(buffer, 1);
    buffer.close();
    expect(fs.existsSync(path.join(dir, 'lock'))).toBe(false);
  });

  it('drops the oldest messages when full and counts them', () => {
    const dir = tempDir();
    const drops: number[] = [];
    const buffer = OfflineBuffer.open(dir, {
      maxMessages: 5,
      messagesPerSegment: 2,
      onDrop: (total) => drops.push(total),
    });
    fill(buffer, 8);
    expect(contents(buffer).map((m) => m.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(buffer.dropped).toBe(3);
    expect(drops).toEqual([1, 2, 3]);
    buffer.close();

    const reopened = OfflineBuffer.open(dir, { maxMessages: 5 });
    expect(contents(reopened).map((m) => m.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(reopened.dropped).toBe(3);
    expect(reopened.nextSeq).toBe(9);
    reopened.close();
  });

  it('drops the messages older than maxAgeMs, oldest first, and counts them', () => {
    const dir = tempDir();
    let now = T0;
    const drops: [number, string][] = [];
    const options = {
      maxMessages: 1000,
      maxAgeMs: 30 * 60_000,
      now: () => now,
      messagesPerSegment: 10,
      onDrop: (total: number, reason: string) => drops.push([total, reason]),
    };
    const buffer = OfflineBuffer.open(dir, options);
    // An hour offline, a message a minute: the first half hour is too old by the end.
    for (let seq = 1; seq <= 60; seq++) {
      now = T0 + seq * 60_000;
      buffer.append(message(seq));
    }
    expect(contents(buffer).map((m) => m.seq)).toEqual(range(30, 60));
    expect(buffer.dropped).toBe(29);
    expect(drops.every(([, reason]) => reason === 'age')).toBe(true);
    expect(drops.at(-1)![0]).toBe(29);
    // Time alone ages them too, and across a restart.
    buffer.close();
    now += 10 * 60_000;
    const reopened = OfflineBuffer.open(dir, options);
    expect(contents(reopened).map((m) => m.seq)).toEqual(range(40, 60));
    expect(reopened.dropped).toBe(39);
    reopened.close();
  });

  it('trims acknowledged messages, deleting spent segment files', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 100, messagesPerSegment: 3 });
    fill(buffer, 10);
    expect(segmentFiles(dir)).toHaveLength(4);
    buffer.ack(7);
    expect(buffer.oldestSeq).toBe(8);
    expect(buffer.size).toBe(3);
    expect(segmentFiles(dir)).toHaveLength(2);
    buffer.ack(5);
    expect(buffer.oldestSeq).toBe(8);
    buffer.close();

    const reopened = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(contents(reopened).map((m) => m.seq)).toEqual([8, 9, 10]);
    reopened.close();
  });

  it('continues the sequence after a restart with everything acknowledged', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 100 });
    fill(buffer, 3);
    buffer.ack(3);
    expect(buffer.size).toBe(0);
    expect(segmentFiles(dir)).toHaveLength(0);
    abandon(dir);

    const reopened = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(reopened.size).toBe(0);
    expect(reopened.nextSeq).toBe(4);
    reopened.close();
  });

  it('keeps its messages, numbered on, past a server watermark above its own last seq', () => {
    const dir = tempDir();
    const buffer = OfflineBuffer.open(dir, { maxMessages: 100 });
    fill(buffer, 2);
    // An ack of messages of an earlier counter covers none of these.
    buffer.ack(40);
    expect(buffer.size).toBe(2);
    buffer.renumberAbove(40);
    expect(buffer.nextSeq).toBe(43);
    buffer.close();
    const reopened = OfflineBuffer.open(dir, { maxMessages: 100 });
    expect(contents(reopened).map((m) => [m.seq, JSON.parse(m.payload) as unknown])).toEqual([
      [41, { seq: 41, readings: [{ n: 1 }] }],
      [42, { seq: 42, readings: [{ n: 2 }] }],
    ]);
    expect(reopened.nextSeq).toBe(43);
    expect(segmentFiles(dir)).toHaveLength(1);
    reopened.close();
  });

  it('refuses an append out of sequence', () => {
    const buffer = OfflineBuffer.open(tempDir(), { maxMessages: 10 });
    expect(() => buffer.append(message(2))).toThrow(/expected seq 1/);
    buffer.close();
  });
});
