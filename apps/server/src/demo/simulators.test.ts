import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../test/wait.ts';
import {
  demoServerEnv,
  spawnServer,
  SPAWNED_SERVER_TEST_TIMEOUT_MS,
  type ServerProcess,
} from '../test/server-process.ts';
import { externalDatabaseUrl } from '../test/test-server.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (let step = cleanups.pop(); step; step = cleanups.pop()) await step();
});

/** Pids whose parent is `pid`, with their command lines. */
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
        return ppid === pid ? [{ pid: Number(entry), cmdline }] : [];
      } catch {
        return []; // exited meanwhile
      }
    });

/** Alive and not a zombie. */
const running = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

// Embedded database and broker only: CI's PostgreSQL + Mosquitto pass would run it unchanged.
describe.skipIf(externalDatabaseUrl)(
  'the demo gateways',
  { timeout: SPAWNED_SERVER_TEST_TIMEOUT_MS },
  () => {
    it('die with the server, even when it is killed with SIGKILL', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'lw-demo-test-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const server: ServerProcess = spawnServer(demoServerEnv(dataDir));
      cleanups.push(() => server.kill());
      await server.listening;
      const child = (file: string, what: string) =>
        waitFor(() => childrenOf(server.child.pid!).find((c) => c.cmdline.includes(file)), {
          what,
        });
      const gateway = await child('gateways.json', 'the demo gateway process');
      const plcs = await child('plcs.json', 'the demo PLC process');
      for (const { pid } of [gateway, plcs])
        cleanups.push(() => running(pid) && process.kill(pid, 'SIGKILL'));
      // It is running the gateways: they hold their buffer directories.
      await waitFor(() => existsSync(join(dataDir, 'demo/buffers/LWGW00000001/lock')), {
        what: 'the first gateway buffer',
      });

      expect(await server.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      await waitFor(() => !running(gateway.pid) && !running(plcs.pid), {
        what: 'the orphaned gateway and PLC processes to exit',
      });
      // It stopped cleanly: the buffer directories are free for the next server's gateways.
      expect(existsSync(join(dataDir, 'demo/buffers/LWGW00000001/lock'))).toBe(false);
    });
  },
);
