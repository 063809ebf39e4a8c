import { sql } from 'kysely';
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { ingestCounters } from '../../test/probes.ts';
import { startTestServer, TEST_SECRET, type TestServer } from '../../test/test-server.ts';
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

  const staleOwner = (pid: number, startTime = '1') =>
    JSON.stringify({
      pid,
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      startTime,
      createdAt: Date.now(),
      nonce: 'stale',
    });

  it('takes over a lock whose pid is alive but is another process (pid reused after a reboot)', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      await once(other, 'spawn');
      // Written by a server before generations: a plain pid, older than the boot.
      const legacy = tempDir();
      writeFileSync(join(legacy, 'linewatch.lock'), String(other.pid));
      const beforeBoot = (Date.now() - uptime() * 1000 - 3_600_000) / 1000;
      utimesSync(join(legacy, 'linewatch.lock'), beforeBoot, beforeBoot);
      lockDataDir(legacy).release();

      // Same pid, different process start time.
      const reused = tempDir();
      writeFileSync(join(reused, 'linewatch.lock.7'), staleOwner(other.pid!));
      const lock = lockDataDir(reused);
      expect(() => lockDataDir(reused)).toThrow(DataDirLockedError);
      lock.release();
    } finally {
      other.kill();
    }
  });

  it('lets exactly one of many concurrent starters take over a stale lock', async () => {
    const racers: ChildProcess[] = [];
    const reply = <T>(child: ChildProcess) =>
      new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
    try {
      for (let i = 0; i < 8; i++) {
        const child = fork(fileURLToPath(new URL('../../test/lock-racer.ts', import.meta.url)), {
          execArgv: ['--import', 'tsx'],
          stdio: 'ignore',
        } as never);
        racers.push(child);
      }
      await Promise.all(racers.map((child) => reply(child)));
      const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
      const winners: number[] = [];
      for (let round = 0; round < 20; round++) {
        const dir = tempDir();
        // Half the rounds start from a lock of the old format, half from a dead generation.
        if (round % 2) writeFileSync(join(dir, 'linewatch.lock'), String(dead));
        else writeFileSync(join(dir, 'linewatch.lock.3'), staleOwner(dead));
        const answers = await Promise.all(
          racers.map((child) => {
            const answer = reply<{ won: boolean; error?: string }>(child);
            child.send({ dir });
            return answer;
          }),
        );
        winners.push(answers.filter((a) => a.won).length);
        for (const a of answers) if (!a.won) expect(a.error).toMatch(/in use by process/);
        expect(readdirSync(dir).filter((f) => f.startsWith('linewatch.lock'))).toHaveLength(1);
        await Promise.all(
          racers.map((child) => {
            const released = reply(child);
            child.send('release');
            return released;
          }),
        );
      }
      expect(winners).toEqual(Array.from({ length: 20 }, () => 1));
    } finally {
      for (const child of racers) child.kill();
    }
  });
});
