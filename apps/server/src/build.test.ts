import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoServerEnv, REPO_ROOT, SPAWNED_SERVER_TEST_TIMEOUT_MS } from './test/server-process.ts';
import { waitFor } from './test/wait.ts';
import { ingestCounters } from './test/probes.ts';
import { externalDatabaseUrl } from './test/test-server.ts';

/**
 * `npm start` runs the compiled server (apps/server/build.mjs) with plain node: no tsx anywhere,
 * not in the PGlite worker, the first start's initdb or the demo gateways.
 */
// Embedded database and broker only: CI's PostgreSQL + Mosquitto pass would run it unchanged.
describe.skipIf(externalDatabaseUrl)(
  'the compiled server',
  // The build, the demo's start and its first readings.
  { timeout: SPAWNED_SERVER_TEST_TIMEOUT_MS + 60_000 },
  () => {
    // Inside the repository, so that the bundle finds node_modules as dist/ does.
    const outdir = join(REPO_ROOT, 'apps/server/dist', `test-${process.pid}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'lw-build-test-'));
    afterAll(() => {
      rmSync(outdir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('starts from a fresh data directory with the demo, ingests, and stops on SIGTERM', async () => {
      const build = spawnSync(
        process.execPath,
        [join(REPO_ROOT, 'apps/server/build.mjs'), outdir],
        {
          encoding: 'utf8',
        },
      );
      expect(build.status, build.stderr).toBe(0);

      const server = spawn(process.execPath, [join(outdir, 'main.js')], {
        cwd: tmpdir(),
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...demoServerEnv(dataDir),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      try {
        // The demo seeds 90 days before it listens: 45 s alone, over 60 s beside two other
        // test files on CI's two cores (as seed.test.ts's start).
        const port = await waitFor(
          () => /Linewatch is running: http:\/\/localhost:(\d+)\//.exec(output)?.[1],
          { timeout: 120_000, what: 'the compiled server to listen' },
        ).catch((error: Error) => {
          throw new Error(`${error.message} (output: ${output})`);
        });
        const baseUrl = `http://127.0.0.1:${port}`;
        // The compiled demo gateways publish and the compiled worker stores.
        await waitFor(async () => (await ingestCounters(baseUrl)).accepted > 0, {
          timeout: 30_000,
          what: 'readings from the compiled demo gateways',
        });
      } finally {
        server.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    });
  },
);
