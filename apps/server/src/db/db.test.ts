import { sql } from 'kysely';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { ingestCounters } from '../test/probes.ts';
import { startTestServer, TEST_SECRET, type TestServer } from '../test/test-server.ts';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';
import { openDatabase } from './database.ts';

describe('a long query', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('does not stall the event loop: timers fire and HTTP is answered while it runs', async () => {
    const events: string[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    let done = false;
    const query = sql`SELECT pg_sleep(2)`.execute(server.linewatch.database.db).then(() => {
      done = true;
      events.push(`query done after ${ticks > 0 ? 'ticks' : 'no ticks'}`);
    });
    try {
      await ingestCounters(server.baseUrl);
      events.push(done ? 'healthz after the query' : 'healthz during the query');
      await query;
    } finally {
      clearInterval(timer);
    }
    expect(events).toEqual(['healthz during the query', 'query done after ticks']);
  });
});

describe('the embedded database directory', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lw-db-test-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second opener while the first has it, and frees it on close', async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SECRET: TEST_SECRET });
    const first = await openDatabase(config);
    try {
      const second = openDatabase(config);
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(/data directory .* is in use by process \d+/);
      // The first opener is unharmed.
      const { rows } = await sql<{ n: number }>`SELECT 1 AS n`.execute(first.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await first.close();
    }
    const lock = lockDataDir(config.DATA_DIR);
    lock.release();
  });

  it('takes over the lock of a process that died without releasing it (kill -9)', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']);
    writeFileSync(join(dir, 'linewatch.lock'), String(dead.pid));
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    lock.release();
  });

  it('takes over a lock left by an earlier run that had the same pid (a restarted container)', () => {
    const dir = tempDir();
    // In a container the server is often pid 1 (or another fixed pid) on every start.
    writeFileSync(join(dir, 'linewatch.lock'), String(process.pid));
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    lock.release();
  });
});
