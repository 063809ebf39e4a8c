import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { uptime } from 'node:os';
import { resolve } from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * Who holds a lock: a pid alone is not an identity (pids are reused, a container restarts the
 * server with the same pid). On Linux the boot id and the process's start time (in clock ticks
 * since boot, /proc/<pid>/stat field 22) make it one; the nonce tells two of our own locks apart.
 */
interface Owner {
  pid: number;
  bootId: string | null;
  startTime: string | null;
  /** ms since the epoch; where /proc is missing, a lock older than the boot is stale. */
  createdAt: number;
  nonce: string;
}

const LEGACY = 'linewatch.lock';
/** `linewatch.lock.<generation>`: the highest generation is the lock. */
const GENERATION = /^linewatch\.lock\.(\d+)$/;

const readProc = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

const bootId = (): string | null => readProc('/proc/sys/kernel/random/boot_id')?.trim() ?? null;

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
const startTimeOf = (pid: number): string | null => {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
};

const pidExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const bootedAt = () => Date.now() - uptime() * 1000;

/** Locks this process holds, by nonce: a lock naming our pid that is not in here is an old run's. */
const held = new Set<string>();

const isAlive = (owner: Owner): boolean => {
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return false;
  if (owner.pid === process.pid) return held.has(owner.nonce);
  if (owner.startTime !== null) {
    const startTime = startTimeOf(owner.pid);
    if (startTime !== null || readProc('/proc/self/stat') !== null)
      return startTime === owner.startTime;
  }
  return pidExists(owner.pid) && owner.createdAt >= bootedAt() - 60_000;
};

const parseOwner = (text: string): Owner | null => {
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.nonce === 'string' ? owner : null;
  } catch {
    return null;
  }
};

const lockedError = (dir: string, pid: number) =>
  new DataDirLockedError(
    `数据目录正被另一个进程使用 / data directory ${dir} is in use by process ${pid}; stop it or set another DATA_DIR`,
  );

const generations = (dir: string): number[] =>
  readdirSync(dir)
    .flatMap((file) => {
      const match = GENERATION.exec(file);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);

/**
 * A lock file left by a server before generations (plain pid). Honoured while that pid runs and
 * the file is younger than the boot, so an older server still running keeps its directory.
 */
const checkLegacy = (dir: string) => {
  const path = resolve(dir, LEGACY);
  let pid: number;
  let mtime: number;
  try {
    pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    mtime = statSync(path).mtimeMs;
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid !== process.pid && pidExists(pid) && mtime >= bootedAt())
    throw lockedError(dir, pid);
  unlinkQuietly(path);
};

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it.
 *
 * Every step is atomic on a local file system: the lock is the file `linewatch.lock.<n>` with
 * the highest n. A starter reads the highest generation; if its owner is alive the directory is
 * in use. Otherwise (none, or its owner is dead) it creates generation n+1 with link(2), which
 * fails if another starter created it first. Having created it, it lists the directory again:
 * only if its generation is still the highest does it own the lock (a starter that read an older
 * listing may create a lower generation after a takeover cleaned up; it sees the higher one and
 * backs off). The winner removes the generations below its own.
 */
export const lockDataDir = (dir: string): { release: () => void } => {
  mkdirSync(dir, { recursive: true });
  checkLegacy(dir);
  const owner: Owner = {
    pid: process.pid,
    bootId: bootId(),
    startTime: startTimeOf(process.pid),
    createdAt: Date.now(),
    nonce: randomBytes(12).toString('hex'),
  };
  const draft = resolve(dir, `.linewatch.lock.${owner.nonce}`);
  writeFileSync(draft, JSON.stringify(owner));
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const current = generations(dir).at(-1);
      if (current !== undefined) {
        const text = readProc(resolve(dir, `linewatch.lock.${current}`));
        if (text === null) continue; // a starter that backed off removed it: look again
        const holder = parseOwner(text);
        if (holder && isAlive(holder)) throw lockedError(dir, holder.pid);
      }
      const generation = (current ?? 0) + 1;
      const path = resolve(dir, `linewatch.lock.${generation}`);
      try {
        linkSync(draft, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      if (generations(dir).at(-1) !== generation) {
        unlinkQuietly(path);
        continue;
      }
      held.add(owner.nonce);
      for (const old of generations(dir))
        if (old < generation) unlinkQuietly(resolve(dir, `linewatch.lock.${old}`));
      return {
        release: () => {
          held.delete(owner.nonce);
          try {
            if (parseOwner(readFileSync(path, 'utf8'))?.nonce === owner.nonce) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    }
    throw new DataDirLockedError(`could not lock data directory ${dir}`);
  } finally {
    unlinkQuietly(draft);
  }
};

/** Another starter may remove the same file (its own generation, or a cleanup). */
const unlinkQuietly = (path: string) => {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
};
