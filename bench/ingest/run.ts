/*
 * Ingest benchmark (docs/design.md section 7): G gateways × M machines publish readings over MQTT
 * (--per-message of them in each message), QoS 1, as fast as a window of unacknowledged messages allows, through the broker into
 * a real server process with the embedded database. Prints messages/s acknowledged end to end
 * over the measured span, publish → phone-socket latency, and the server's RSS.
 *
 *   npm run ingest -w @linewatch/bench -- [--gateways 20] [--machines 100] [--seconds 30] [--sockets 200]
 *     [--rate 0]   messages/s over all gateways; 0 = as fast as the window of unacked messages allows
 *     [--in-flight 100]  messages awaiting PUBACK per gateway, as the agent keeps (0 = no limit)
 *     [--per-message 1]  readings per message: 1 = one reading per message; a real gateway sends
 *                  all its machines' readings of one poll in one message (--per-message 100)
 *   Latency as docs/design.md states it: --rate 2000 (2,000 machines at 1 Hz) --sockets 1000.
 *   MQTT_URL=mqtt://127.0.0.1:1883 … to go through an external broker instead of the embedded one;
 *   DATABASE_URL=postgres://… to write to PostgreSQL instead of the embedded database.
 *   --server-entry apps/server/dist/main.js runs the compiled server (`npm run build:server`), as
 *   `npm start` does; a `.ts` entry runs through tsx.
 *   --memory-log /tmp/mem.jsonl logs each server thread's memory every 2 s (ingest/memory-log.mjs).
 *   --broker-only (with MQTT_URL) starts no server: ingest/broker-echo.ts stands in its place and
 *   only acknowledges, so the run measures the broker's own pipe for the same gateways; the
 *   server's figure over this one is the share of the pipe it keeps (docs/benchmarks.md).
 *   --deploy-mosquitto starts the machine's Mosquitto with the repository's deploy/mosquitto/
 *   configuration (its own ports, password files for these gateways and the server) and runs
 *   through it: the external broker as docs/deploy.md sets it up, whatever MQTT_URL says.
 *   --instances 2 starts that many servers on one PostgreSQL and one external broker (both
 *   DATABASE_URL and MQTT_URL must be set): they share the gateways out (docs/architecture.md,
 *   "Scale-out"), every one hears every message; the phones' sockets are spread over them.
 *   --schema NAME (with DATABASE_URL): ingest into that schema beside what it holds, and keep it.
 */
import { identityApi } from '@linewatch/contracts/identity-api';
import { topicOf } from '@linewatch/contracts/mqtt';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import {
  sockets as socketPaths,
  telemetryApi,
  type HealthReply,
} from '@linewatch/contracts/telemetry-api';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { historyApi } from '@linewatch/contracts/history-api';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { loadConfig } from '../../apps/server/src/foundation/config/config.ts';
import { openDatabase } from '../../apps/server/src/foundation/db/database.ts';
import { SERVER_USER, startDeployMosquitto } from '../../apps/server/src/test/deploy-mosquitto.ts';
import {
  BENCH_PASSWORD,
  benchSn,
  factoryDay,
  seedBenchFactory,
  seedDayRollups,
  TIMEZONE,
} from '../support/seed.ts';
import { freePort, startServer } from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    gateways: { type: 'string', default: '20' },
    machines: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    sockets: { type: 'string', default: '200' },
    window: { type: 'string', default: '5000' },
    /**
     * QoS 1 messages a gateway keeps awaiting the broker's PUBACK, resends included: the agent's
     * MAX_IN_FLIGHT (apps/gateway/src/sender.ts). 0 = no limit (the whole window at once).
     */
    'in-flight': { type: 'string', default: '100' },
    /** Messages per second over all gateways; 0 = as fast as the window allows. */
    rate: { type: 'string', default: '0' },
    'per-message': { type: 'string', default: '1' },
    /** The server to start: its TypeScript entry through tsx, or the compiled `dist/main.js`. */
    'server-entry': { type: 'string', default: 'apps/server/src/main.ts' },
    /** Appends each server thread's memory breakdown to this file (ingest/memory-log.mjs). */
    'memory-log': { type: 'string' },
    /**
     * While measuring, also run the 31-day queries (one machine's history, and the statistics
     * over every machine), one request after another each, over 90 days of seeded day rollups:
     * what they cost ingest, and what ingest costs them.
     */
    queries: { type: 'boolean', default: false },
    instances: { type: 'string', default: '1' },
    'broker-only': { type: 'boolean', default: false },
    'deploy-mosquitto': { type: 'boolean', default: false },
    /**
     * A schema of DATABASE_URL to ingest into beside what it holds (bench/soak: 60 days of
     * minutes), kept afterwards; by default the run makes a schema of its own and drops it.
     */
    schema: { type: 'string', default: '' },
  },
});
const BROKER_ONLY = args['broker-only'];
const DEPLOY_MOSQUITTO = args['deploy-mosquitto'];
const EXTERNAL = DEPLOY_MOSQUITTO || Boolean(process.env.MQTT_URL);
if (BROKER_ONLY && !EXTERNAL) {
  console.error('--broker-only measures an external broker: set MQTT_URL');
  process.exit(2);
}
const INSTANCES = Number(args.instances);
if (INSTANCES > 1 && !(process.env.DATABASE_URL && EXTERNAL)) {
  console.error('--instances above 1 needs DATABASE_URL and MQTT_URL (instances share both)');
  process.exit(2);
}
const GATEWAYS = Number(args.gateways);
const MACHINES = Number(args.machines);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const SOCKETS = Number(args.sockets);
const WINDOW = Number(args.window);
const IN_FLIGHT = Number(args['in-flight']) || Infinity;
const RATE = Number(args.rate);
/** The contract's maximum readings in one telemetry message (a gateway's whole poll, up to 500). */
const MAX_PER_MESSAGE = 500;
const PER_MESSAGE = Math.max(
  1,
  Math.min(Number(args['per-message']), Number(args.machines), MAX_PER_MESSAGE),
);
const SECRET = 'bench-secret-0123456789';
/** Wait for ack progress before the first resend: the agent's default (its ackTimeoutMs). */
const ACK_TIMEOUT_MS = 10_000;

const dataDir = mkdtempSync(join(tmpdir(), 'lw-bench-'));
// With DATABASE_URL the run gets its own schema in that PostgreSQL, or the one --schema names.
const schema = args.schema || `bench_${process.pid}`;
if (args.schema && !process.env.DATABASE_URL) throw new Error('--schema needs DATABASE_URL');
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO: '0',
  SECRET,
  LOG_LEVEL: 'warn',
  TIMEZONE,
  ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: schema } : {}),
};
// In a --schema kept across runs, each run's gateways, machines and line are its own.
const tag = args.schema ? String(process.pid) : '';
const snOf = (g: number, m: number) => benchSn(g, m, tag);

// Seed through the server's own migrations and query layer, then hand the directory over.
let gatewayIds: string[];
{
  const { db, close } = await openDatabase(loadConfig(env));
  gatewayIds = await seedBenchFactory(db, {
    gateways: GATEWAYS,
    machines: MACHINES,
    secret: SECRET,
    tag,
  });
  if (args.queries) {
    await seedDayRollups(db, 90);
  }
  await close();
}

const mqttPort = await freePort();
const SERVER_SECRET = 'bench-server-secret';
const deployBroker = DEPLOY_MOSQUITTO
  ? await startDeployMosquitto({
      gateways: gatewayIds.map((id) => ({ id, secret: SECRET })),
      serverSecret: SERVER_SECRET,
    })
  : null;
/** Where the servers (or the echo) connect, with their credential; null: the embedded broker. */
const serverBroker: Record<string, string> | null = deployBroker
  ? {
      MQTT_URL: `mqtt://127.0.0.1:${deployBroker.serverPort}`,
      MQTT_USERNAME: SERVER_USER,
      MQTT_PASSWORD: SERVER_SECRET,
    }
  : process.env.MQTT_URL
    ? { MQTT_URL: process.env.MQTT_URL }
    : null;
// BENCH_NODE_ARGS: extra node flags for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const memoryLog = args['memory-log'] ? resolve(args['memory-log']) : undefined;
if (memoryLog)
  nodeArgs.unshift('--import', fileURLToPath(new URL('./memory-log.mjs', import.meta.url)));
const servers = await Promise.all(
  Array.from({ length: BROKER_ONLY ? 0 : INSTANCES }, () =>
    startServer({
      entry: args['server-entry'],
      env: { ...env, ...serverBroker, ...(memoryLog && { LW_MEMORY_LOG: memoryLog }) },
      nodeArgs,
      mqttPort,
    }),
  ),
);
const echo = BROKER_ONLY && serverBroker ? await startEcho(serverBroker) : null;
const brokerUrl = deployBroker
  ? `mqtt://127.0.0.1:${deployBroker.gatewayPort}`
  : (process.env.MQTT_URL ?? `mqtt://127.0.0.1:${mqttPort}`);
/** All instances' resident memory together, MB. */
const rssMb = () =>
  servers.reduce((sum, server) => {
    const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
    return sum + Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }, 0);
/** ingest/broker-echo.ts as a process of its own, as the server would be. */
async function startEcho(broker: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./broker-echo.ts', import.meta.url))],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...broker } },
  );
  await new Promise<void>((done) => child.stdout.on('data', () => done()));
  return child;
}
const healthOf = async (url: string) =>
  ((await (await fetch(`${url}${telemetryApi.health.path}`)).json()) as { data: HealthReply }).data;
// The instances share the gateways out before anything is measured.
while (servers.length > 0) {
  const owned = await Promise.all(
    servers.map(async (s) => (await healthOf(s.baseUrl)).gatewaysOwned),
  );
  const share = Math.ceil(GATEWAYS / INSTANCES);
  if (owned.reduce((a, b) => a + b, 0) === GATEWAYS && owned.every((n) => n <= share)) break;
  await new Promise((r) => setTimeout(r, 200));
}

const baseUrl = servers[0]?.baseUrl;
const keyId = baseUrl
  ? (
      (await (
        await fetch(`${baseUrl}${identityApi.wechatBindUser.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ psnCode: 'bench', passWord: encryptPassword(BENCH_PASSWORD) }),
        })
      ).json()) as { data: { keyId: string } }
    ).data.keyId
  : '';

// Phones: sockets on machines spread over every gateway; latency = arrival - reading timestamp.
let measuring = false;
const latencies: number[] = [];
/**
 * Phone `i`'s socket, open. A socket the server (or the kernel's accept queue) resets while
 * thousands open at once is opened again, up to 5 times: an 'error' is never left unhandled.
 */
const openPhone = async (i: number): Promise<WebSocket> => {
  const g = i % GATEWAYS;
  const m = Math.floor(i / GATEWAYS) % MACHINES;
  // Phones behind a load balancer: spread over the instances (a session is good on each).
  const instanceUrl = servers[i % INSTANCES]!.baseUrl;
  for (let attempt = 1; ; attempt++) {
    // The session travels in a header, never the URL (it would be logged).
    const ws = new WebSocket(
      `${instanceUrl.replace('http', 'ws')}${socketPaths.realtime.path(snOf(g, m))}`,
      { headers: { keyId } },
    );
    const opened = await new Promise<Error | null>((resolve) => {
      ws.once('open', () => resolve(null));
      ws.once('error', resolve);
    });
    if (!opened) {
      ws.on('error', (error) => console.error(`phone ${i}: ${error.message}`));
      // A reading's latency is when it first reaches the phone; later pushes that repeat it
      // (the peak settled after a flush, the offline check) are not samples.
      let seen = 0;
      ws.on('message', (data: Buffer) => {
        const payload = JSON.parse(data.toString()) as RealtimePayload;
        if (!payload.updatedAt || payload.updatedAt <= seen) return;
        seen = payload.updatedAt;
        if (measuring) latencies.push(Date.now() - payload.updatedAt);
      });
      return ws;
    }
    ws.terminate();
    if (attempt === 5) throw new Error(`phone ${i}: no socket after 5 attempts: ${opened.message}`);
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
};
// Opened 500 at a time: 5,000 at once overflow the listen backlog (511) and some are reset.
const sockets: WebSocket[] = [];
for (let first = 0; first < (BROKER_ONLY ? 0 : SOCKETS); first += 500)
  sockets.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(500, SOCKETS - first) }, (_, k) => openPhone(first + k)),
    )),
  );

// Gateways: PER_MESSAGE readings per message, counters rising, a window of unacknowledged messages.
interface Gateway {
  client: mqtt.MqttClient;
  telemetry: string;
  seq: number;
  acked: number;
  counters: number[];
  /** Payloads not yet acknowledged by the server, by seq (the agent's buffer). */
  unacked: Map<number, string>;
  /** As the agent's sender: the next seq to (re)send, PUBACKs awaited, and the current round. */
  sendFrom: number;
  /** The highest seq published so far: publishing one at or below it again is a resend. */
  sentUpTo: number;
  inFlight: number;
  round: number;
  /** When `acked` last moved, or the last resend. */
  progressAt: number;
  /** Resends since the last ack progress: each doubles the wait before the next (up to 32x). */
  quietResends: number;
  resent: number;
}
const gateways: Gateway[] = await Promise.all(
  gatewayIds.map(async (id) => {
    const client = await mqtt.connectAsync(brokerUrl, {
      username: id,
      password: SECRET,
      clientId: `gw-${id}`,
      clean: true,
    });
    const gw: Gateway = {
      client,
      telemetry: topicOf(id, 'telemetry'),
      seq: 0,
      acked: 0,
      counters: new Array<number>(MACHINES).fill(0),
      unacked: new Map(),
      sendFrom: 1,
      sentUpTo: 0,
      inFlight: 0,
      round: 0,
      progressAt: Date.now(),
      quietResends: 0,
      resent: 0,
    };
    client.on('message', (topic, payload) => {
      const { seq, next, rejected, received } = JSON.parse(payload.toString()) as {
        seq: number;
        next?: number;
        rejected?: { reason: string };
        received?: number;
      };
      for (let s = gw.acked + 1; s <= seq; s++) gw.unacked.delete(s);
      if (seq > gw.acked) [gw.acked, gw.progressAt, gw.quietResends] = [seq, Date.now(), 0];
      // As the agent does: the server holds what was sent and is still writing it; wait.
      if (received !== undefined && received > gw.acked)
        [gw.progressAt, gw.quietResends] = [Date.now(), 0];
      // As the agent does: the server did not take what was sent from `next` on (a gateway
      // taken over by another instance); resend it now. Not on a stale rejection: that answers a
      // resend of what the server has, and what is above `next` is on its way (protocol § 4.6).
      if (next !== undefined && rejected?.reason !== 'stale') {
        resendFrom(gw, next);
        gw.progressAt = Date.now();
        gw.quietResends = 0;
      }
    });
    await client.subscribeAsync(topicOf(id, 'ack'), { qos: 1 });
    return gw;
  }),
);

let running = true;
/** Set once the drain is over, acknowledged or not: the gateways stop resending. */
let stopped = false;
/**
 * As the agent's sender: publishes from `sendFrom` in seq order while fewer than IN_FLIGHT wait
 * for their PUBACK (which a broker holds back while its subscriber, the server, is behind).
 */
function send(gw: Gateway) {
  const round = gw.round;
  while (gw.inFlight < IN_FLIGHT && gw.sendFrom <= gw.seq) {
    const payload = gw.unacked.get(gw.sendFrom++);
    if (payload === undefined) continue;
    if (gw.sendFrom - 1 <= gw.sentUpTo) gw.resent++;
    else gw.sentUpTo = gw.sendFrom - 1;
    gw.inFlight++;
    gw.client.publish(gw.telemetry, payload, { qos: 1 }, () => {
      if (round !== gw.round) return;
      gw.inFlight--;
      send(gw);
    });
  }
}
/** A new round from `seq` (a timeout, or the server's `next`): older PUBACKs no longer count. */
function resendFrom(gw: Gateway, seq: number) {
  gw.round++;
  gw.inFlight = 0;
  gw.sendFrom = Math.max(seq, gw.acked + 1);
  send(gw);
}
const pump = (gw: Gateway, g: number) => {
  // Paced: this gateway's share of RATE, credited by the time that really passed between two
  // steps (a timer due in 10 ms fires later on a loaded machine: counting ticks offered 7,834/s
  // for a nominal 10,000, issue 27).
  const perMs = RATE > 0 ? RATE / GATEWAYS / 1000 : Infinity;
  // Gateways poll on their own clocks: a random phase, or paced gateways would all send in the
  // same tick, a burst of every machine's reading at once, once a second.
  let credit = RATE > 0 ? Math.random() : 0;
  let last = performance.now();
  const step = () => {
    const now = performance.now();
    // At most 100 ms of credit banked (a pause is not made up in one burst), never less than
    // one message (slow rates).
    credit =
      RATE > 0 ? Math.min(credit + perMs * (now - last), Math.max(1, 100 * perMs)) : Infinity;
    last = now;
    while (running && gw.seq - gw.acked < WINDOW && gw.inFlight < IN_FLIGHT && credit >= 1) {
      credit--;
      const ts = Date.now();
      const readings = Array.from({ length: PER_MESSAGE }, (_, i) => {
        const m = (gw.seq * PER_MESSAGE + i) % MACHINES;
        const produced = (gw.counters[m]! += 1);
        return {
          sn: snOf(g, m),
          ts,
          status: 2,
          counters: { produced, ok: produced, ng: 0, firstPassOk: produced },
          alarms: [],
        };
      });
      gw.seq++;
      gw.unacked.set(gw.seq, JSON.stringify({ seq: gw.seq, readings }));
      send(gw);
    }
    // As the agent does: no ack progress for a while, resend everything unacknowledged in order
    // (a broker may drop messages for a subscriber whose queue is full, such as Mosquitto's
    // max_queued_messages, 1000 by default).
    // As the agent does: messages still awaiting PUBACK are not the broker's yet (protocol
    // § 4.2); the ack timer starts once they are.
    if (gw.inFlight > 0) gw.progressAt = Date.now();
    const wait = ACK_TIMEOUT_MS * 2 ** Math.min(gw.quietResends, 5);
    if (gw.acked < gw.seq && Date.now() - gw.progressAt > wait) {
      resendFrom(gw, gw.acked + 1);
      gw.progressAt = Date.now();
      gw.quietResends++;
    }
    if (!stopped && (running || gw.acked < gw.seq)) setTimeout(step, RATE > 0 ? 10 : 2);
  };
  step();
};
gateways.forEach(pump);

const ackedTotal = () => gateways.reduce((sum, gw) => sum + gw.acked, 0);
const publishedTotal = () => gateways.reduce((sum, gw) => sum + gw.seq, 0);
await new Promise((r) => setTimeout(r, WARMUP * 1000));
measuring = true;
const startAcked = ackedTotal();
const startPublished = publishedTotal();
const started = Date.now();
// CPU time of each process over the measured span: where a message's cost goes.
const cpuOf = (pid: number | undefined) => {
  if (!pid) return 0;
  // utime and stime, fields 14 and 15 of /proc/<pid>/stat (clock ticks; 100 a second here).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const cpuPids = {
  servers: servers.map((s) => s.process.pid),
  echo: [echo?.pid],
  broker: [deployBroker?.pid],
};
const cpuNow = (): Record<string, number> =>
  Object.fromEntries(
    Object.entries(cpuPids).map(([k, pids]) => [
      k,
      pids.reduce<number>((t, pid) => t + cpuOf(pid), 0),
    ]),
  );
const cpuStart = cpuNow();
const benchCpuStart = process.cpuUsage();
let peakRss = 0;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 1000);
const queryRuns = args.queries
  ? Object.entries({
      history: `${historyApi.history.path}?${new URLSearchParams({
        snCode: snOf(0, 0),
        beginTime: factoryDay(-31),
        endTime: factoryDay(-1),
      })}`,
      statistics: `${statisticsApi.statistics.path}?${new URLSearchParams({
        dataStartDate: `${factoryDay(-31)} 00:00:00`,
        dataEndDate: `${factoryDay(0)} 00:00:00`,
        pageIndex: '1',
        pageSize: '5',
      })}`,
    }).map(async ([name, path]) => {
      const r = await autocannon({
        url: `${baseUrl}${path}`,
        connections: 1,
        duration: SECONDS,
        headers: { keyId },
      });
      return [
        name,
        {
          p50: r.latency.p50,
          p99: r.latency.p99,
          requests: r.requests.total,
          errors: r.non2xx + r.errors,
        },
      ] as const;
    })
  : [];
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const queries = Object.fromEntries(await Promise.all(queryRuns));
const elapsed = (Date.now() - started) / 1000;
const cpuEnd = cpuNow();
const benchCpu = process.cpuUsage(benchCpuStart);
/** CPU seconds per second of the measured span, per process kind (1 = one core busy). */
const cores = Object.fromEntries(
  Object.entries(cpuEnd)
    .filter(([k]) => cpuPids[k as keyof typeof cpuPids].some(Boolean))
    .map(([k, v]) => [k, Math.round(((v - (cpuStart[k] ?? 0)) / elapsed) * 100) / 100]),
);
cores.gateways = Math.round(((benchCpu.user + benchCpu.system) / 1e6 / elapsed) * 100) / 100;
const measuredAcked = ackedTotal() - startAcked;
const measuredPublished = publishedTotal() - startPublished;
measuring = false;
running = false;
clearInterval(rssTimer);

// Drain: every published message must come back acknowledged.
const drainStart = Date.now();
while (gateways.some((gw) => gw.acked < gw.seq) && Date.now() - drainStart < 60_000)
  await new Promise((r) => setTimeout(r, 100));
stopped = true;
const published = gateways.reduce((sum, gw) => sum + gw.seq, 0);
const healths = await Promise.all(servers.map((s) => healthOf(s.baseUrl)));

latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
console.log(
  JSON.stringify(
    {
      instances: INSTANCES,
      gateways: GATEWAYS,
      machines: GATEWAYS * MACHINES,
      sockets: SOCKETS,
      broker: DEPLOY_MOSQUITTO ? 'deploy/mosquitto' : EXTERNAL ? 'external' : 'embedded',
      database: process.env.DATABASE_URL ? 'postgresql' : 'embedded',
      seconds: Math.round(elapsed),
      readingsPerMessage: PER_MESSAGE,
      ...(RATE > 0 && { offeredMessagesPerSecond: Math.round(measuredPublished / elapsed) }),
      ackedMessagesPerSecond: Math.round(measuredAcked / elapsed),
      ackedReadingsPerSecond: Math.round((measuredAcked * PER_MESSAGE) / elapsed),
      published,
      acknowledged: ackedTotal(),
      unacknowledgedAfterDrain: published - ackedTotal(),
      resentByGateways: gateways.reduce((sum, gw) => sum + gw.resent, 0),
      socketLatencyMs: {
        samples: latencies.length,
        p50: pct(0.5),
        p99: pct(0.99),
        max: latencies.at(-1),
      },
      serverRssMb: { peak: peakRss, end: rssMb() },
      cores,
      ...(args.queries && { queriesWhileIngesting: queries }),
      ...(BROKER_ONLY
        ? { brokerOnly: true }
        : { ingest: healths.length === 1 ? healths[0]!.ingest : healths.map((h) => h.ingest) }),
    },
    null,
    2,
  ),
);

for (const ws of sockets) ws.close();
await Promise.all(gateways.map((gw) => gw.client.endAsync(true)));
await Promise.all(servers.map((s) => s.stop()));
echo?.kill();
await deployBroker?.stop();
rmSync(dataDir, { recursive: true, force: true });
if (process.env.DATABASE_URL && !args.schema) {
  const { db, close } = await openDatabase(loadConfig({ ...env, DATABASE_SCHEMA: 'public' }));
  await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
  await close();
}
