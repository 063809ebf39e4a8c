import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A value on a phone's screen (its socket): which machine, when it arrived, and either the part
 * count it shows (Node-RED: the PLC's counter as read) or the time of the read it came from
 * (Linewatch: the reading's timestamp).
 */
export interface Arrival {
  machine: number;
  at: number;
  value?: number;
  readAt?: number;
}

/** One product running against the PLCs. */
export interface Side {
  /** Its processes by role, whose CPU and memory are its cost. */
  processes: Record<string, number>;
  stop(): Promise<void>;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim() || 100);

/** utime + stime of a process, seconds (/proc/<pid>/stat fields 14 and 15). */
export const cpuSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
};

/** Resident memory of a process, MB. */
export const rssMb = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  );

/** Children a run started: killed when the bench exits however it exits, so none skews the next. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
export const track = <T extends ChildProcess>(child: T): T => {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
};

/** SIGTERM, resolved once it exited (SIGKILL after 10 s). */
export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
