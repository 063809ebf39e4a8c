import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

export class DataDirLockedError extends Error {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Lock files this process holds. A lock file naming our own pid that is not in here was left by
 * an earlier run that happened to have the same pid: a container restarted after kill -9 starts
 * the server as pid 1 (or another fixed pid) every time.
 */
const held = new Set<string>();

/**
 * PGlite takes no lock of its own and two processes on one directory corrupt it. The lock file
 * holds the owner's pid, created with O_EXCL; a file left by a dead process (kill -9) is stale.
 */
export const lockDataDir = (dir: string): { release: () => void } => {
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, 'linewatch.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return {
        release: () => {
          held.delete(path);
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
      const ours = owner === process.pid;
      if (Number.isInteger(owner) && (ours ? held.has(path) : isAlive(owner))) {
        throw new DataDirLockedError(
          `数据目录正被另一个进程使用 / data directory ${dir} is in use by process ${owner}; stop it or set another DATA_DIR`,
        );
      }
      unlinkSync(path);
    }
  }
  throw new DataDirLockedError(`could not lock data directory ${dir}`);
};
