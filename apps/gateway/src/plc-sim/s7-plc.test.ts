import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// node-snap7 keeps its event handles in globals that every S7Server re-initialises and every
// collected one closes: a second server in one process aborts it (SIGABRT) once either is
// collected. It killed a test worker in CI. One server per process, kept, started again.
describe('the simulated S7 PLC in one process', () => {
  it('serves again after a PLC was closed and collected, and refuses a second at once', () => {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'fixtures/s7-restarts.ts')],
      { cwd: path.join(import.meta.dirname, '../..'), encoding: 'utf8', timeout: 60_000 },
    );
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toMatchObject({
      status: 0,
      signal: null,
    });
    expect(JSON.parse(run.stdout) as unknown).toEqual({
      read: [1, 2, 3, 4, 5, 6, 7],
      second: expect.stringMatching(/^S7 server: one S7 PLC per process/) as unknown,
    });
  }, 90_000);
});
