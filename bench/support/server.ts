import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** A TCP port free at the time of asking. */
export const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

/**
 * Every server a bench started and has not stopped: killed when the bench exits, however it
 * exits (a crash, an unhandled rejection, Ctrl-C), so none is left running to skew the next
 * measurement. 'exit' listeners run on uncaught errors too; signals are turned into an exit.
 */
const running = new Set<ChildProcessByStdio<null, Readable, null>>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));

export interface BenchServer {
  baseUrl: string;
  process: ChildProcessByStdio<null, Readable, null>;
  /** SIGTERM, resolved once it exited. */
  stop(): Promise<void>;
}

/**
 * The real server as a child process, on free ports, with glibc's malloc arenas as `npm start` sets
 * them (docs/benchmarks.md, memory). `entry` is relative to the repository's root (a .ts entry runs
 * through tsx); resolves once it printed its address.
 */
export const startServer = async ({
  entry,
  env,
  nodeArgs = [],
  mqttPort,
}: {
  entry: string;
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  mqttPort?: number;
}): Promise<BenchServer> => {
  const path = resolve(fileURLToPath(new URL('../..', import.meta.url)), entry);
  const child = spawn(
    process.execPath,
    [...nodeArgs, ...(path.endsWith('.ts') ? ['--import', 'tsx'] : []), path],
    {
      env: {
        ...env,
        PORT: '0',
        MQTT_PORT: String(mqttPort ?? (await freePort())),
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  const baseUrl = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/localhost:(\d+)\//.exec(out);
      if (match) done(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => fail(new Error(`server exited ${code}`)));
  });
  return {
    baseUrl,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
};
