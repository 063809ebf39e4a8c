import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './test-server.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const SERVER_MAIN = join(REPO_ROOT, 'apps/server/src/main.ts');

/**
 * The time limit of a test that starts a server process on a fresh data directory (initdb, and
 * with the demo, its seed and gateway processes): 15 s idle, and three or four times that while
 * the other test files share CI's two cores. A guard against a hang, not a measure of speed.
 */
export const SPAWNED_SERVER_TEST_TIMEOUT_MS = 180_000;

/** A demo server's environment: a fresh data directory, free loopback ports, no web app. */
export const demoServerEnv = (dataDir: string): Record<string, string> => ({
  HOST: '127.0.0.1',
  PORT: '0',
  MQTT_PORT: '0',
  DEMO: '1',
  DATA_DIR: dataDir,
  SECRET: TEST_SECRET,
  LOG_LEVEL: 'warn',
  WEB_DIST: join(dataDir, 'no-web-dist'),
});

export interface ServerProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the HTTP port once main prints its URL; rejects if the process exits first. */
  listening: Promise<number>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The server as production runs it: `node --import tsx apps/server/src/main.ts`, configured only
 * by `env` (nothing is inherited from the test's own environment but PATH and HOME).
 */
export const spawnServer = (env: Record<string, string>): ServerProcess => {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? '/tmp',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let onOutput = () => {};
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      onOutput();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<number>((resolve, reject) => {
    onOutput = () => {
      const match = /Linewatch is running: http:\/\/localhost:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    };
    void exited.then(({ code, signal }) =>
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`)),
    );
  });
  // Tests that expect an exit never look at `listening`.
  listening.catch(() => undefined);
  return {
    child,
    output: () => output,
    exited,
    listening,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
};

/** A TCP port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
