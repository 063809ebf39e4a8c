import { topicOf, type Reading, type Rejection } from '@linewatch/contracts/mqtt';
import mqtt from 'mqtt';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestGateway } from '../test/factories.ts';
import { probes } from '../test/probes.ts';
import { REPO_ROOT } from '../test/server-process.ts';
import { storedRows } from '../test/stored-rows.ts';
import { externalMqttUrl, startTestServer, type TestServer } from '../test/test-server.ts';
import { MINUTE, truthRows, type Step } from '../test/truth.ts';
import { waitFor } from '../test/wait.ts';

// examples/python-gateway/gateway.py, a gateway written from docs/protocol.md alone with Debian's
// paho-mqtt, against a real server: through the embedded broker, or the machine's Mosquitto when
// MQTT_URL is set. It loses its counter between two runs and sends one malformed message.

const PYTHON = '/usr/bin/python3';
const SCRIPT = join(REPO_ROOT, 'examples/python-gateway/gateway.py');
const PPM_TARGET = 120;

/** Debian's python3 with paho-mqtt; `python3` on PATH may be another one without it. */
const requirePaho = () => {
  const probe = spawnSync(PYTHON, ['-c', 'import paho.mqtt.client'], { encoding: 'utf8' });
  if (probe.status !== 0)
    throw new Error(
      "the example gateway needs Debian's paho-mqtt for /usr/bin/python3: " +
        '`apt-get install -y python3-paho-mqtt` (.ci/run installs it when missing)\n' +
        (probe.error?.message ?? probe.stderr),
    );
};

interface Run {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
}

const runGateway = (
  url: string,
  gateway: TestGateway,
  sn: string,
  dir: string,
  extra: string[],
) => {
  const child = spawn(
    PYTHON,
    [
      SCRIPT,
      ...['--url', url, '--serial', gateway.id, '--secret', gateway.secret],
      ...['--state-dir', dir, '--machine', sn],
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const line of complete) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, stderr: () => stderr, exited } satisfies Run;
};

const finished = (run: Run) =>
  waitFor(
    () => {
      if (run.child.exitCode !== null)
        throw new Error(`the example gateway exited ${run.child.exitCode}:\n${run.stderr()}`);
      return run.lines.find((l) => 'done' in l);
    },
    { timeout: 30_000, what: 'the example gateway to have everything acknowledged' },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nits stderr:\n${run.stderr()}`);
  });

const stop = async (run: Run) => {
  if (run.child.exitCode === null) run.child.kill('SIGTERM');
  return run.exited;
};

let server: TestServer;
let make: ReturnType<typeof factories>;
const dirs: string[] = [];
const runs: Run[] = [];

beforeAll(async () => {
  requirePaho();
  server = await startTestServer({ TIMEZONE: 'Asia/Shanghai' });
  make = factories(server.linewatch);
});
afterAll(async () => {
  for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

describe('the example third-party gateway (examples/python-gateway)', () => {
  it('binds, publishes, loses its counter, sends a malformed message, and loses nothing', async () => {
    const line = await make.createLine();
    const gateway = await make.createGateway();
    const sn = await make.createDevice({ line, gateway, ppmTarget: PPM_TARGET });
    const dir = mkdtempSync(join(tmpdir(), 'lw-py-gateway-'));
    dirs.push(dir);
    const start = Date.now() - 5 * MINUTE;
    const plc = ['--start-ms', String(start)];

    // First life: five readings and an operation event, all acknowledged.
    const first = runGateway(server.mqttUrl, gateway, sn, dir, [
      ...plc,
      '--readings',
      '5',
      '--events',
      '1',
    ]);
    runs.push(first);
    const firstDone = (await finished(first)).done as { counter: number; nextStep: number };
    expect(firstDone.counter).toBe(6);
    // A command answered within its deadline (docs/protocol.md 5).
    const pong = await server.linewatch.commands.send(gateway.id, { type: 'ping' });
    expect(pong.code).toBe(200);
    expect(await stop(first)).toBe(0);

    // Second life: its saved counter is gone; it starts at 1 again at once, and sends one
    // message with a bad reading among good ones.
    rmSync(join(dir, 'state.json'));
    const second = runGateway(server.mqttUrl, gateway, sn, dir, [
      ...plc,
      ...['--first-step', String(firstDone.nextStep), '--readings', '3', '--malformed', '--eager'],
    ]);
    runs.push(second);
    const secondDone = (await finished(second)).done as { counter: number };
    expect(await stop(second)).toBe(0);

    const rejections = second.lines.flatMap((l) =>
      'rejected' in l ? [l.rejected as Rejection] : [],
    );
    expect(rejections).toContainEqual(expect.objectContaining({ reason: 'stale', seq: 1 }));
    expect(rejections).toContainEqual(expect.objectContaining({ reason: 'malformed', items: [1] }));
    // Numbered on past the first life's 6: three readings, the malformed message, one more.
    expect(secondDone.counter).toBe(11);
    expect(await probes(server.linewatch.database.db).lastSeq(gateway.id)).toBe(11);

    // Everything well-formed it ever sent is stored, once: compared row by row with the truth.
    const sent = [...first.lines, ...second.lines].flatMap((l) =>
      'sent' in l ? [l.sent as { readings?: Reading[]; events?: Operation[] }] : [],
    );
    const steps: Step[] = sent
      .flatMap((m) => m.readings ?? [])
      .filter((r) => [1, 2, 3].includes(r.status))
      .map((r) => ({
        ts: r.ts,
        status: r.status,
        ...(r.idleReason && { idleReason: r.idleReason }),
        counters: r.counters,
        alarms: r.alarms.filter((a) => a.active).map((a) => a.code),
      }));
    expect(steps).toHaveLength(5 + 3 + 2);
    const operations = sent.flatMap((m) => m.events ?? []);
    expect(operations).toHaveLength(1);
    expect(await storedRows(server.linewatch.database.db, sn)).toEqual(
      truthRows(steps, PPM_TARGET, operations),
    );

    // On a shared broker its retained offline state would outlive the test.
    if (externalMqttUrl) await clearRetainedState(gateway);
  });
});

type Operation = { ts: number; comment: string; setValue: string; user: string };

const clearRetainedState = async (gateway: TestGateway) => {
  const client = await mqtt.connectAsync(server.mqttUrl, {
    clientId: `gw-${gateway.id}`,
    username: gateway.id,
    password: gateway.secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  await client.publishAsync(topicOf(gateway.id, 'state'), '', { qos: 1, retain: true });
  await client.endAsync();
};
