/*
 * Recovery after an outage (issue 22, item 2): real gateway agents (apps/gateway, simulated PLCs,
 * their default settings: 1 s polls, 10 s ack timeout, reconnect backoff 1–30 s) publish through
 * the broker into a real server; the server is killed (SIGKILL), stays down --down seconds while
 * the agents keep polling into their buffers, and is started again. Measured per gateway: from the
 * moment the restarted server listens to the moment the agent logs that the server has every
 * message it buffered ("caught up"), and what made it resend: its reconnect (the embedded broker
 * died with the server) or the server's answer (an external broker stayed up). Goal: ≤ 2 s.
 *
 *   npm run recovery -w @linewatch/bench -- [--gateways 10] [--machines 10] [--down 10] [--rounds 3]
 *   MQTT_URL=mqtt://127.0.0.1:1883 DATABASE_URL=postgres://… … for PostgreSQL + Mosquitto.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../../apps/server/src/foundation/config/config.ts';
import { openDatabase } from '../../apps/server/src/foundation/db/database.ts';
import { benchSn, seedBenchFactory, TIMEZONE } from '../support/seed.ts';
import { freePort, startServer, type BenchServer } from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    gateways: { type: 'string', default: '10' },
    machines: { type: 'string', default: '10' },
    down: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'server-entry': { type: 'string', default: 'apps/server/src/main.ts' },
  },
});
const GATEWAYS = Number(args.gateways);
const MACHINES = Number(args.machines);
const DOWN_MS = Number(args.down) * 1000;
const ROUNDS = Number(args.rounds);
const SECRET = 'bench-secret-0123456789';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'lw-bench-recovery-'));
const schema = `bench_${process.pid}`;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO: '0',
  SECRET,
  LOG_LEVEL: 'warn',
  TIMEZONE,
  ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: schema } : {}),
};
let gatewayIds: string[];
{
  const { db, close } = await openDatabase(loadConfig(env));
  gatewayIds = await seedBenchFactory(db, {
    gateways: GATEWAYS,
    machines: MACHINES,
    secret: SECRET,
  });
  await close();
}

// The embedded broker must come back on the port the agents know.
const mqttPort = await freePort();
const brokerUrl = process.env.MQTT_URL ?? `mqtt://127.0.0.1:${mqttPort}`;
const start = () => startServer({ entry: args['server-entry'], env, mqttPort });

/** Each agent log line with when it arrived. */
const lines: { at: number; gateway: string; text: string }[] = [];
const config = join(dataDir, 'gateway.json');
writeFileSync(
  config,
  JSON.stringify({
    brokerUrl,
    gateways: gatewayIds.map((id, g) => ({
      id,
      password: SECRET,
      bufferDir: join(dataDir, 'buffers', id),
      machines: Array.from({ length: MACHINES }, (_, m) => ({
        driver: 'simulated',
        sn: benchSn(g, m),
        seed: g * 1000 + m,
        ppmTarget: 60,
      })),
    })),
  }),
);
const agent = spawn(
  process.execPath,
  ['--import', 'tsx', resolve(ROOT, 'apps/gateway/src/main.ts'), '--config', config],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
);
let partial = '';
const onOutput = (chunk: Buffer) => {
  partial += chunk.toString();
  const complete = partial.split('\n');
  partial = complete.pop()!;
  for (const line of complete) {
    const match = /^\[gw (\S+)\] (.*)$/.exec(line);
    if (match) lines.push({ at: Date.now(), gateway: match[1]!, text: match[2]! });
  }
};
agent.stdout.on('data', onOutput);
agent.stderr.on('data', onOutput);

const waitUntil = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
};

let server: BenchServer = await start();
// Flowing: every gateway connected and acknowledged for a few seconds.
await new Promise((r) => setTimeout(r, 5_000));

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const rounds = [];
for (let round = 0; round < ROUNDS; round++) {
  server.process.kill('SIGKILL');
  await new Promise((r) => server.process.once('exit', r));
  await new Promise((r) => setTimeout(r, DOWN_MS));
  const from = lines.length;
  server = await start();
  const back = Date.now();
  const caughtUp = () =>
    new Set(
      lines
        .slice(from)
        .filter((l) => l.text.startsWith('caught up'))
        .map((l) => l.gateway),
    );
  const complete = await waitUntil(() => caughtUp().size === GATEWAYS, 120_000);
  const after = lines.slice(from);
  const recovery = gatewayIds.flatMap((id) => {
    const line = after.find((l) => l.gateway === id && l.text.startsWith('caught up'));
    return line ? [line.at - back] : [];
  });
  const by = (prefix: string) =>
    new Set(after.filter((l) => l.text.startsWith(prefix)).map((l) => l.gateway)).size;
  rounds.push({
    round: round + 1,
    complete,
    caughtUpMs: { p50: percentile(recovery, 0.5), max: Math.max(...recovery) },
    resentOnReconnect: by('replaying'),
    resentOnServerAnswer: by('server asked to resend'),
    resentOnTimer: by('no ack for'),
  });
  // Let the flow settle before the next outage.
  await new Promise((r) => setTimeout(r, 3_000));
}

console.log(
  JSON.stringify(
    {
      broker: process.env.MQTT_URL ? 'external' : 'embedded',
      database: process.env.DATABASE_URL ? 'postgresql' : 'embedded',
      gateways: GATEWAYS,
      machines: GATEWAYS * MACHINES,
      downSeconds: DOWN_MS / 1000,
      rounds,
    },
    null,
    2,
  ),
);

agent.kill('SIGTERM');
await new Promise((r) => agent.once('exit', r));
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
if (process.env.DATABASE_URL) {
  const { db, close } = await openDatabase(loadConfig({ ...env, DATABASE_SCHEMA: 'public' }));
  await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
  await close();
}
