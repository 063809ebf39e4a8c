import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { OfflineBuffer } from './buffer/offline-buffer.ts';
import type { MachineDriver } from './drivers/driver.ts';
import { Poller } from './poller.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step();
});

/** A machine that made one more part at every read: every reading differs from the last. */
const counting = (sn: string): MachineDriver => {
  let produced = 0;
  return {
    sn,
    read: async () => {
      produced++;
      return {
        status: 2,
        counters: { produced, ok: produced, ng: 0, firstPassOk: produced },
        alarms: [],
      };
    },
    takeEvents: () => [],
    close: async () => undefined,
  };
};

it('stamps each poll later than the one before, even when the clock has not moved', async () => {
  // A poll behind its schedule runs at once: on a timer's cached loop time it can read the clock
  // in the same millisecond as the last one (a loaded machine; the one-hour test's fast clock).
  const dir = mkdtempSync(join(tmpdir(), 'lw-poller-'));
  const buffer = OfflineBuffer.open(dir, { maxMessages: 1000 });
  const driver = counting('SN-TS-1');
  const poller = new Poller({
    drivers: () => [driver],
    buffer,
    pollIntervalMs: 1,
    heartbeatMs: 60_000,
    readingsPerMessage: 1,
    onBuffered: () => undefined,
    now: () => 1_795_000_000_000,
    log: { info: () => undefined, warn: () => undefined },
  });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => buffer.close());
  cleanups.push(() => poller.stop());
  poller.start();
  await vi.waitFor(() => expect(buffer.size).toBeGreaterThanOrEqual(5));
  await poller.stop();
  const stamps: number[] = [];
  for (let m = buffer.nextFrom(0); m; m = buffer.nextFrom(m.seq + 1))
    stamps.push(
      ...(JSON.parse(m.payload) as { readings: { ts: number }[] }).readings.map((r) => r.ts),
    );
  expect(stamps.length).toBeGreaterThanOrEqual(5);
  stamps.forEach((ts, i) => {
    if (i > 0) expect(ts).toBeGreaterThan(stamps[i - 1]!);
  });
});
