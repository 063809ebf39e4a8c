/*
 * API benchmark (docs/design.md section 7): a real server process over the embedded database (or
 * DATABASE_URL) seeded with --machines machines on 20 lines and --days days of day rollups each,
 * then autocannon on each scenario of SCENARIOS in turn. Prints p50 / p90 / p99 / requests per
 * second per scenario against its target.
 *
 *   npm run api -w @linewatch/bench -- [--machines 10000] [--days 90] [--seconds 10]
 *     [--only statistics]   run the scenarios whose name contains this
 *     [--connections 1]     every scenario at this many connections instead of its own
 *     [--cpu-prof /tmp/p]   the server writes a CPU profile (node --cpu-prof) into this folder
 *
 * A new scenario is one more entry of SCENARIOS.
 */
import { devicesApi } from '@linewatch/contracts/devices-api';
import { historyApi } from '@linewatch/contracts/history-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../apps/server/src/foundation/config/config.ts';
import { openDatabase } from '../../apps/server/src/foundation/db/database.ts';
import {
  BENCH_PASSWORD,
  factoryDay,
  factoryNow,
  seedDayRollups,
  seedMachines,
  TIMEZONE,
} from '../support/seed.ts';
import { startServer } from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    machines: { type: 'string', default: '10000' },
    days: { type: 'string', default: '90' },
    seconds: { type: 'string', default: '10' },
    only: { type: 'string', default: '' },
    /** Overrides every scenario's connections (1: one request at a time, the bare latency). */
    connections: { type: 'string', default: '' },
    'server-entry': { type: 'string', default: 'apps/server/src/main.ts' },
    /** A folder: the server runs under `node --cpu-prof` and writes its profile there on exit. */
    'cpu-prof': { type: 'string', default: '' },
    /** A schema of DATABASE_URL already seeded (bench/soak): used as it is, and kept. */
    schema: { type: 'string', default: '' },
  },
});
const MACHINES = Number(args.machines);
const DAYS = Number(args.days);
const SECONDS = Number(args.seconds);
const LINES = 20;

interface Scenario {
  name: string;
  /** What docs/design.md section 7 asks, shown beside the figure. */
  target: string;
  /** The percentile the target is about, and its limit in ms. */
  percentile: 'p50' | 'p99';
  limitMs: number;
  connections: number;
  path: string;
  query: Record<string, string | number>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'device list, 15 a page, all machines',
    target: 'p99 ≤ 25 ms at 50 connections',
    percentile: 'p99',
    limitMs: 25,
    connections: 50,
    path: devicesApi.machineList.path,
    query: { pageIndex: 1, pageSize: 15 },
  },
  {
    name: 'statistics, 31 days, all machines, page 1 of 5',
    target: 'p99 ≤ 100 ms',
    percentile: 'p99',
    limitMs: 100,
    connections: 50,
    path: statisticsApi.statistics.path,
    query: {
      dataStartDate: `${factoryDay(-31)} 00:00:00`,
      dataEndDate: `${factoryDay(0)} 00:00:00`,
      pageIndex: 1,
      pageSize: 5,
    },
  },
  {
    name: 'statistics, 31 days, all machines, last page',
    target: 'p99 ≤ 100 ms',
    percentile: 'p99',
    limitMs: 100,
    connections: 50,
    path: statisticsApi.statistics.path,
    query: {
      dataStartDate: `${factoryDay(-31)} 00:00:00`,
      dataEndDate: `${factoryDay(0)} 00:00:00`,
      pageIndex: Math.ceil(MACHINES / 5),
      pageSize: 5,
    },
  },
  {
    // One phone asking for one machine's last 31 days: its bare latency.
    name: 'history, one machine, 31 days by day',
    target: 'p50 ≤ 10 ms',
    percentile: 'p50',
    limitMs: 10,
    connections: 1,
    path: historyApi.history.path,
    query: {
      snCode: 'B-000001',
      beginTime: factoryDay(-31),
      endTime: factoryDay(-1),
      pageType: 'date',
    },
  },
  {
    // The edge days are partial: their minutes are read (rollup_minute), the days between whole.
    name: 'statistics, 30 days from 08:00 to now, all machines, page 1 of 5',
    target: 'p99 ≤ 100 ms',
    percentile: 'p99',
    limitMs: 100,
    connections: 50,
    path: statisticsApi.statistics.path,
    query: {
      dataStartDate: `${factoryDay(-30)} 08:00:00`,
      dataEndDate: factoryNow(),
      pageIndex: 1,
      pageSize: 5,
    },
  },
  {
    name: 'history, one machine, yesterday by hour',
    target: '(no target; the day view)',
    percentile: 'p50',
    limitMs: Infinity,
    connections: 1,
    path: historyApi.history.path,
    query: { snCode: 'B-000001', beginTime: factoryDay(-1), endTime: factoryDay(-1) },
  },
  ...(
    [
      ['summary', statisticsApi.mapData.path, 'world', ''],
      ['summary', statisticsApi.mapData.path, 'province', '广东省'],
      ['points', statisticsApi.mapAllData.path, 'world', ''],
      ['points', statisticsApi.mapAllData.path, 'country', '中国'],
      ['points', statisticsApi.mapAllData.path, 'province', '广东省'],
    ] as const
  ).map(([what, path, mapLevel, positionName]) => ({
    name: `map ${what}, ${mapLevel}${positionName ? ` ${positionName}` : ''}, all machines`,
    target: 'p99 ≤ 100 ms (issue 27; live every 10 s per phone)',
    percentile: 'p99' as const,
    limitMs: 100,
    connections: 50,
    path,
    query: { mapLevel, positionName },
  })),
];

const dataDir = mkdtempSync(join(tmpdir(), 'lw-bench-api-'));
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  DEMO: '0',
  SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  TIMEZONE,
  ...(process.env.DATABASE_URL
    ? { DATABASE_SCHEMA: args.schema || `bench_api_${process.pid}` }
    : {}),
};
if (args.schema && !process.env.DATABASE_URL) throw new Error('--schema needs DATABASE_URL');

// Seed through the server's own migrations and query layer (in SQL: 900,000 rows in seconds),
// unless --schema names one already filled (bench/soak).
if (!args.schema) {
  const started = Date.now();
  const { db, close } = await openDatabase(loadConfig(env));
  await seedMachines(db, MACHINES, LINES);
  await seedDayRollups(db, DAYS);
  await close();
  console.log(
    `seeded ${MACHINES} machines × ${DAYS} days of rollups in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

const server = await startServer({
  entry: args['server-entry'],
  env,
  nodeArgs: args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [],
});
try {
  const { baseUrl } = server;
  const login = await fetch(`${baseUrl}${identityApi.wechatBindUser.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ psnCode: 'bench', passWord: encryptPassword(BENCH_PASSWORD) }),
  });
  const keyId = ((await login.json()) as { data: { keyId: string } }).data.keyId;

  /**
   * The server's event-loop delay since the last call (prom-client's default metrics, from
   * monitorEventLoopDelay, reset at each scrape): how long a request waited behind others.
   */
  const loopDelay = async () => {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const ms = (name: string) =>
      Math.round(
        Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1]) *
          1000,
      );
    return { p50: ms('p50'), p99: ms('p99'), max: ms('max') };
  };

  console.log(
    `\n| scenario | connections | p50 ms | p90 ms | p99 ms | req/s | errors | loop delay p50 / p99 / max ms | target |`,
  );
  console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |`);
  let missed = 0;
  const chosen = SCENARIOS.filter((x) => x.name.includes(args.only)).map((x) =>
    args.connections ? { ...x, connections: Number(args.connections) } : x,
  );
  for (const s of chosen) {
    const url = `${baseUrl}${s.path}?${new URLSearchParams(
      Object.entries(s.query).map(([k, v]) => [k, String(v)]),
    )}`;
    const check = await fetch(url, { headers: { keyId } });
    if (check.status !== 200) throw new Error(`${s.name}: ${check.status} ${await check.text()}`);
    // A short warm-up: the first queries plan and fill caches.
    await autocannon({ url, connections: s.connections, duration: 2, headers: { keyId } });
    await loopDelay();
    const r = await autocannon({
      url,
      connections: s.connections,
      duration: SECONDS,
      headers: { keyId },
    });
    const loop = await loopDelay();
    // Errors are requests that timed out (10 s) or failed: they count against the target.
    const met = r.latency[s.percentile] <= s.limitMs && r.non2xx + r.errors === 0;
    if (!met) missed++;
    console.log(
      `| ${s.name} | ${s.connections} | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${Math.round(r.requests.average)} | ${r.non2xx + r.errors} | ${loop.p50} / ${loop.p99} / ${loop.max} | ${s.target}${met ? '' : ' **missed**'} |`,
    );
  }
  process.exitCode = missed ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (process.env.DATABASE_URL && !args.schema) {
    const { db, close } = await openDatabase(loadConfig({ ...env, DATABASE_SCHEMA: 'public' }));
    await sql.raw(`DROP SCHEMA ${env.DATABASE_SCHEMA} CASCADE`).execute(db);
    await close();
  }
}
