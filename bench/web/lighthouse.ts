/*
 * Lighthouse mobile performance (DESIGN.md section 7: ≥ 95) on /deviceList, /map and
 * /deviceHistory. Starts the server with the demo on a fresh data directory (it serves the built web
 * app, compressed as in production), signs in as the demo operator, and runs Lighthouse's default
 * mobile configuration (Moto G Power emulation, simulated slow 4G and 4× CPU throttling) in Debian's
 * chromium, the session cookie sent with every request. Prints each page's score and its metrics;
 * exits non-zero when a page is under the target.
 *
 *   npm run build -w @linewatch/web && npm run lighthouse -w @linewatch/bench [-- --runs 3]
 *
 * --page /map (repeatable) audits only those pages.
 *
 * --reports DIR writes each run's full report (JSON) there, for its request chain and timings.
 * Each page is audited once unrecorded before the measured runs (the server's start-up work).
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium (`apt-get install chromium`).
 */
import { KEY_ID_COOKIE } from '@linewatch/contracts/limits';
import lighthouse from 'lighthouse';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDemo } from '../support/demo.ts';
import { freePort } from '../support/server.ts';
import { LIGHTHOUSE_PAGES } from './pages.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    'server-entry': { type: 'string', default: 'apps/server/src/main.ts' },
    reports: { type: 'string' },
    page: { type: 'string', multiple: true },
  },
});
const TARGET = 95;
const PAGES = args.page ?? LIGHTHOUSE_PAGES;
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

const profileDir = mkdtempSync(join(tmpdir(), 'lw-bench-chromium-'));
const demo = await startDemo(args['server-entry']);
const { server, keyId } = demo;
const debugPort = await freePort();
const chromium = spawn(
  process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  [
    '--headless=new',
    '--no-sandbox',
    '--disable-dev-shm-usage',
    `--remote-debugging-port=${debugPort}`,
    `--user-data-dir=${profileDir}`,
    'about:blank',
  ],
  { stdio: 'ignore' },
);
// Without this, a missing chromium (ENOENT) is an unhandled error event: the script used to wait
// for a DevTools endpoint that would never answer.
const chromiumFailed = new Promise<never>((_, fail) =>
  chromium.once('error', (error) =>
    fail(new Error(`cannot start chromium (apt-get install chromium): ${error.message}`)),
  ),
);
chromiumFailed.catch(() => undefined);
try {
  // Chromium listens once its DevTools endpoint answers.
  for (let i = 0; ; i++) {
    const up = await Promise.race([
      fetch(`http://127.0.0.1:${debugPort}/json/version`).then(
        (r) => r.ok,
        () => false,
      ),
      chromiumFailed,
    ]);
    if (up) break;
    if (i > 100) throw new Error('chromium did not start');
    await new Promise((r) => setTimeout(r, 100));
  }

  // benchmarkIndex is Lighthouse's measure of this machine's CPU at that moment: the blocking time
  // is timed on it and multiplied by 4, so a run is read with it (this VM's varies by 2.5×).
  console.log(`| page | score | ${METRICS.join(' | ')} | benchmarkIndex |`);
  console.log(`| --- | ---: | ${METRICS.map(() => '---:').join(' | ')} | ---: |`);
  let under = 0;
  const audit = async (page: string) => {
    const result = await lighthouse(`${server.baseUrl}${page}`, {
      port: debugPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      extraHeaders: { Cookie: `${KEY_ID_COOKIE}=${keyId}` },
    });
    if (!result) throw new Error(`no Lighthouse result for ${page}`);
    return result;
  };
  // One unrecorded run of each page first: the demo seeds its days and the server compiles its
  // hot paths in the first minute, on the same two cores as the browser whose tasks are timed.
  for (const page of PAGES) await audit(page);
  for (const page of PAGES) {
    for (let run = 0; run < Number(args.runs); run++) {
      const result = await audit(page);
      const { lhr } = result;
      if (args.reports) {
        mkdirSync(args.reports, { recursive: true });
        const name = `${page.split('?')[0]!.slice(1)}-${run + 1}.json`;
        writeFileSync(join(args.reports, name), JSON.stringify(lhr));
      }
      const score = Math.round((lhr.categories.performance?.score ?? 0) * 100);
      if (score < TARGET) under++;
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      console.log(
        `| ${page}${landed === page.split('?')[0] ? '' : ` (landed on ${landed})`} | ${score} | ${METRICS.map(
          (m) => lhr.audits[m]?.displayValue ?? '—',
        ).join(' | ')} | ${Math.round(lhr.environment.benchmarkIndex)} |`,
      );
    }
  }
  console.log(`target: performance ≥ ${TARGET} on every page`);
  process.exitCode = under ? 1 : 0;
} finally {
  chromium.kill('SIGTERM');
  await demo.stop();
  rmSync(profileDir, { recursive: true, force: true });
}
