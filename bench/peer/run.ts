/*
 * Linewatch beside Node-RED (issue 27): the same simulated PLCs read once a second by each
 * product, shown on a phone's screen, at each machine count; one product at a time.
 *
 *   npm run build:server && npm run nodered -w @linewatch/bench -- \
 *     [--machines 50,200,1000] [--seconds 60] [--warmup 15] [--products linewatch,node-red]
 *
 * The peer is Node-RED 5.0.7 with node-red-contrib-modbus 5.60.2 and the FlowFuse dashboard
 * (@flowfuse/node-red-dashboard 1.31.0), installed on first use into bench/.peer/node-red
 * (git-ignored; never by `npm ci`; peer/install.ts says what it takes and why).
 *
 * - PLCs (peer/plcs.ts, a process of their own): N Mitsubishi FX5U over Modbus TCP, one port each;
 *   every read is answered with the part counters one higher than the read before, and the PLC
 *   reports when it served each value.
 * - Linewatch: the built server (`apps/server/dist/main.js`, embedded database and broker) and
 *   the gateway agent polling every PLC at 1 Hz (peer/linewatch.ts); the screen is each machine's
 *   real-time socket, the one /currentDataReport opens.
 * - Node-RED: a flow made for N (peer/node-red.ts): modbus-read at 1 Hz → decode → a text and a
 *   gauge per machine on one dashboard page; the screen is the dashboard's socket.
 *
 * The screen is watched through each product's browser-side socket, subscribed as the page does,
 * not in a browser: a page per machine is not practical at 1,000 machines. A value is on the
 * screen when its message arrives.
 *
 * Figures, over the measured span after the warm-up:
 * - reads/s: the reads the product made of its PLCs (the PLCs' count), against N a second;
 * - on screen: reads that reached the screen within 5 s, out of N × seconds expected;
 * - read → screen p50/p99: arrival on the socket minus the time the PLC served that read (both
 *   clocks this machine's);
 * - CPU s per machine-hour: utime + stime (/proc/<pid>/stat) of the product's processes — server
 *   and agent for Linewatch, node-red for the peer — per machine and hour;
 * - RSS: the peak of each of those processes;
 * - browser CPU (--browser true, the default; needs `npm run build -w @linewatch/web`): a phone
 *   page left open in Debian's chromium (headless, 375×667) over the span, in % of one core —
 *   Linewatch's /currentDataReport of one machine, Node-RED's dashboard page of all of them (the
 *   dashboard sends every page every widget's messages). --screenshots DIR keeps a picture of each.
 */
import { KEY_ID_COOKIE } from '@linewatch/contracts/limits';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensurePeer } from './install.ts';
import { startLinewatch } from './linewatch.ts';
import { openPhonePage, type PhonePage } from './browser.ts';
import { DASHBOARD_PAGE, startNodeRed } from './node-red.ts';
import { cpuSeconds, ROOT, rssMb, stopChild, track, type Arrival, type Side } from './side.ts';

const { values: args } = parseArgs({
  options: {
    machines: { type: 'string', default: '50,200,1000' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '15' },
    products: { type: 'string', default: 'linewatch,node-red' },
    'server-entry': { type: 'string', default: 'apps/server/dist/main.js' },
    /** Also keep each product's phone page open in chromium and report the browser's CPU. */
    browser: { type: 'string', default: 'true' },
    /** With --browser: a screenshot of each page at the end of its run, into this folder. */
    screenshots: { type: 'string' },
  },
});
const COUNTS = args.machines.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const PRODUCTS = args.products.split(',') as ('linewatch' | 'node-red')[];
const BROWSER = args.browser === 'true';
/** A read that reaches the screen later than this after the span counts as not reaching it. */
const GRACE_MS = 5000;

if (PRODUCTS.includes('linewatch') && !existsSync(join(ROOT, args['server-entry']))) {
  console.error(`no ${args['server-entry']}: run \`npm run build:server\` first`);
  process.exit(2);
}
if (PRODUCTS.includes('node-red')) ensurePeer();
if (
  BROWSER &&
  PRODUCTS.includes('linewatch') &&
  !existsSync(join(ROOT, 'apps/web/dist/index.html'))
) {
  console.error(
    'no apps/web/dist: run `npm run build -w @linewatch/web` first (or --browser false)',
  );
  process.exit(2);
}
if (args.screenshots) mkdirSync(args.screenshots, { recursive: true });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const commit = () => {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'apps', 'packages', 'bench'], {
    cwd: ROOT,
  });
  return head.stdout.toString().trim() + (dirty.stdout.toString().trim() ? '+dirty' : '');
};

/** The PLCs' process: their ports, and when each machine's value k was served (servedAt[i][k]). */
const startPlcs = async (count: number) => {
  const child = track(
    spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/peer/plcs.ts', '--machines', String(count)],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    ),
  );
  const servedAt: number[][] = Array.from({ length: count }, () => []);
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.on('message', (message: { ports?: number[]; served?: number[] }) => {
      if (message.ports) resolve(message.ports);
      const served = message.served ?? [];
      for (let j = 0; j < served.length; j += 3)
        servedAt[served[j]!]![served[j + 1]!] = served[j + 2]!;
    });
    child.once('exit', (code) => reject(new Error(`PLCs exited ${code}`)));
  });
  return { child, ports, servedAt };
};

/** The first k whose serve time is at or after t (serve times rise with k), or -1. */
const firstServedFrom = (times: number[], t: number) => {
  let [lo, hi] = [1, times.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? -Infinity) >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo < times.length ? lo : -1;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

interface Row {
  machines: number;
  product: string;
  readsPerSecond: number;
  onScreen: number;
  p50: number;
  p99: number;
  cpuPerMachineHour: number;
  rssMb: Record<string, number>;
  browserCpuPercent: number | null;
  load: string;
  commit: string;
}

const measure = async (count: number, product: (typeof PRODUCTS)[number]): Promise<Row> => {
  const plcs = await startPlcs(count);
  const arrivals: Arrival[] = [];
  const onArrival = (arrival: Arrival) => arrivals.push(arrival);
  let side: Side;
  let page: PhonePage | null = null;
  try {
    if (product === 'linewatch') {
      const linewatch = await startLinewatch({
        ports: plcs.ports,
        serverEntry: args['server-entry'],
        onArrival,
      });
      side = linewatch;
      // A phone on machine 0's real-time page.
      if (BROWSER)
        page = await openPhonePage(
          `${linewatch.baseUrl}/currentDataReport?snCode=${encodeURIComponent(linewatch.snOf(0))}`,
          { name: KEY_ID_COOKIE, value: linewatch.keyId },
        );
    } else {
      const nodeRed = await startNodeRed({ ports: plcs.ports, onArrival });
      side = nodeRed;
      // A phone on the dashboard's page (all the machines: the dashboard sends every page all of
      // its widgets' messages whichever page shows them).
      if (BROWSER) page = await openPhonePage(`${nodeRed.baseUrl}${DASHBOARD_PAGE}`);
    }
  } catch (error) {
    await stopChild(plcs.child);
    throw error;
  }
  await sleep(WARMUP * 1000);
  page?.cpuPercent();
  const pids = Object.entries(side.processes);
  const cpuStart = pids.map(([, pid]) => cpuSeconds(pid));
  const rss: Record<string, number> = Object.fromEntries(pids.map(([role]) => [role, 0]));
  const sampleRss = () => {
    for (const [role, pid] of pids) rss[role] = Math.max(rss[role]!, rssMb(pid));
  };
  // Reads are counted in exactly SECONDS: the agent reads all its machines at once, so a span a
  // few hundred ms longer would hold one more poll of every machine.
  const started = Date.now();
  const spanEnd = started + SECONDS * 1000;
  while (Date.now() < spanEnd) {
    sampleRss();
    await sleep(Math.min(1000, spanEnd - Date.now()));
  }
  const ended = Date.now();
  const cpu = pids.reduce((sum, [, pid], i) => sum + cpuSeconds(pid) - cpuStart[i]!, 0);
  const load = loadAverage();
  const browserCpuPercent = page?.cpuPercent() ?? null;
  if (page && args.screenshots)
    await page.screenshot(join(args.screenshots, `${product}-${count}.png`));
  await page?.close();
  await sleep(GRACE_MS);
  await side.stop();
  await stopChild(plcs.child);

  // Each read's first arrival on the screen.
  const shown = new Map<string, number>();
  for (const { machine, at, value, readAt } of arrivals) {
    const times = plcs.servedAt[machine]!;
    const k = value ?? firstServedFrom(times, readAt!);
    const key = `${machine}:${k}`;
    if (k > 0 && !shown.has(key)) shown.set(key, at);
  }
  let reads = 0;
  const latencies: number[] = [];
  plcs.servedAt.forEach((times, machine) =>
    times.forEach((servedAt, k) => {
      if (servedAt < started || servedAt >= spanEnd) return;
      reads++;
      const at = shown.get(`${machine}:${k}`);
      if (at !== undefined && at - servedAt <= GRACE_MS) latencies.push(at - servedAt);
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    machines: count,
    product,
    readsPerSecond: Math.round(reads / SECONDS),
    onScreen: latencies.length / (count * SECONDS),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuPerMachineHour: cpu / count / ((ended - started) / 3_600_000),
    rssMb: rss,
    browserCpuPercent,
    load,
    commit: commit(),
  };
};

const rows: Row[] = [];
for (const count of COUNTS)
  for (const product of PRODUCTS) {
    const row = await measure(count, product);
    console.log(JSON.stringify(row));
    rows.push(row);
  }

const names = { linewatch: 'Linewatch (server + agent)', 'node-red': 'Node-RED + dashboard' };
console.log(
  [
    '',
    `Beside Node-RED, ${SECONDS} s per run after ${WARMUP} s of warm-up, ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| machines | product | reads/s | on screen | read → screen p50 / p99 | CPU s per machine-hour | RSS MB | browser CPU | load (1, 5, 15 min) | commit |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) =>
      [
        '',
        r.machines.toLocaleString('en'),
        names[r.product as keyof typeof names],
        `${r.readsPerSecond.toLocaleString('en')} of ${r.machines.toLocaleString('en')}`,
        `${(r.onScreen * 100).toFixed(1)} %`,
        `${r.p50} / ${r.p99} ms`,
        r.cpuPerMachineHour.toFixed(2),
        Object.values(r.rssMb).join(' + '),
        r.browserCpuPercent === null ? '—' : `${r.browserCpuPercent} %`,
        r.load,
        r.commit,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ].join('\n'),
);
process.exit(0);
