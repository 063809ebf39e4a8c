import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { topicOf } from '@linewatch/contracts/mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { onCleanup, runCleanups, startBroker, subscriber, tempDir, waitFor } from './testing.ts';

const appDir = path.resolve(import.meta.dirname, '..');

function runMain(configFile: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--config', configFile],
    {
      cwd: appDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  return { child, exited, output: () => output };
}

describe('gateway CLI', () => {
  afterEach(runCleanups);

  it('runs the configured gateways and leaves them retained offline on SIGTERM, exiting 0', async () => {
    const broker = await startBroker();
    const dir = tempDir();
    const configFile = path.join(dir, 'gateway.json');
    const machine = (sn: string) => ({ sn, driver: 'simulated', seed: 5 });
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        brokerUrl: broker.url,
        pollIntervalMs: 100,
        gateways: [
          { id: 'LWGWCLI00001', password: 'pw', bufferDir: 'buf/1', machines: [machine('SN-C-1')] },
          { id: 'LWGWCLI00002', password: 'pw', bufferDir: 'buf/2', machines: [machine('SN-C-2')] },
        ],
      }),
    );
    const ids = ['LWGWCLI00001', 'LWGWCLI00002'];
    const watcher = await subscriber(
      broker.url,
      ids.map((id) => topicOf(id, 'state')),
    );
    const latest = (id: string) =>
      watcher.messages.filter((m) => m.topic === topicOf(id, 'state')).at(-1)?.body as
        { state: string } | undefined;

    const main = runMain(configFile);
    await waitFor(() => ids.every((id) => latest(id)?.state === 'online'), 'both gateways online');
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
    await waitFor(
      () => ids.every((id) => latest(id)?.state === 'offline'),
      'both gateways offline',
    );

    const late = await subscriber(broker.url, [topicOf(ids[0]!, 'state')]);
    const retained = await waitFor(() => late.messages[0], 'retained state');
    expect(retained).toMatchObject({ retain: true, body: { state: 'offline' } });
    expect(fs.existsSync(path.join(dir, 'buf/1/meta.json'))).toBe(true);
  });

  it('exits 1 with a one-line message naming a bad config field', async () => {
    const dir = tempDir();
    const configFile = path.join(dir, 'bad.json');
    fs.writeFileSync(
      configFile,
      JSON.stringify({ brokerUrl: 'mqtt://127.0.0.1:1', heartbeatMs: 'often', gateways: [] }),
    );
    const main = runMain(configFile);
    expect(await main.exited).toBe(1);
    expect(main.output().trim()).toMatch(/^config: heartbeatMs: [^\n]+$/);
  });
});
