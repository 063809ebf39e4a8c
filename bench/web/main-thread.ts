/*
 * Where a page's main-thread time goes, at Lighthouse's 4× CPU slowdown: the long tasks (over
 * 50 ms, what Total Blocking Time sums) and the functions and scripts that took the most CPU while
 * the page loaded. For finding what to cut; Lighthouse (lighthouse.ts) gives the score.
 *
 *   npm run build -w @linewatch/web && npm run main-thread -w @linewatch/bench [-- --page /map]
 *
 * Function names are minified: build with `npx vite build --minify false` (in apps/web) to read
 * them. Each page is loaded once unrecorded first (the server's start-up work), then profiled.
 */
import { KEY_ID_COOKIE } from '@linewatch/contracts/limits';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startDemo } from '../support/demo.ts';
import { LIGHTHOUSE_PAGES } from './pages.ts';

const { values: args } = parseArgs({
  options: { page: { type: 'string', multiple: true }, top: { type: 'string', default: '15' } },
});
const pages = args.page ?? LIGHTHOUSE_PAGES;
const TOP = Number(args.top);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The Long Animation Frames API's entry (not yet in TypeScript's DOM library). */
interface LongAnimationFrame extends PerformanceEntry {
  blockingDuration: number;
  renderStart: number;
  scripts: {
    invoker: string;
    sourceFunctionName: string;
    sourceURL: string;
    sourceCharPosition: number;
    duration: number;
  }[];
}

/** Self time (ms) per key, heaviest first. */
const selfTime = (profile: Profile, keyOf: (frame: ProfileNode['callFrame']) => string) => {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const key = keyOf(frame);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
};
const fileOf = (url: string) => url.replace(/^.*\//, '');

const demo = await startDemo();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
  await context.addCookies([{ name: KEY_ID_COOKIE, value: demo.keyId, url: demo.server.baseUrl }]);
  for (const path of pages) {
    for (const recorded of [false, true]) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await page.addInitScript(() => {
        const seen: { longTasks: [number, number][]; frames: string[]; lcp: number; fcp: number } =
          { longTasks: [], frames: [], lcp: 0, fcp: 0 };
        Object.assign(window, { __mainThread: seen });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries())
            seen.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
        }).observe({ type: 'longtask', buffered: true });
        // A long animation frame names the scripts that ran in it and what called them (a fetch's
        // promise, React's scheduler message, a module's evaluation): what the long task was for.
        new PerformanceObserver((list) => {
          for (const frame of list.getEntries() as LongAnimationFrame[]) {
            const scripts = frame.scripts
              .filter((s) => s.duration >= 5)
              .map(
                (s) =>
                  `${s.invoker} → ${s.sourceFunctionName || '(anonymous)'} ` +
                  `${s.sourceURL.replace(/^.*\//, '')}:${s.sourceCharPosition} ${Math.round(s.duration)}`,
              );
            seen.frames.push(
              `${Math.round(frame.startTime)}+${Math.round(frame.duration)} (blocking ` +
                `${Math.round(frame.blockingDuration)}, layout ` +
                `${Math.round(frame.duration - (frame.renderStart ? frame.renderStart - frame.startTime : frame.duration))}): ` +
                scripts.join('; '),
            );
          }
        }).observe({ type: 'long-animation-frame', buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) seen.lcp = Math.round(e.startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries())
            if (e.name === 'first-contentful-paint') seen.fcp = Math.round(e.startTime);
        }).observe({ type: 'paint', buffered: true });
      });
      await cdp.send('Profiler.start');
      await page.goto(demo.server.baseUrl + path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(3000);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      const seen = (await page.evaluate(
        () => (window as unknown as Record<string, unknown>).__mainThread,
      )) as { longTasks: [number, number][]; frames: string[]; lcp: number; fcp: number };
      await page.close();
      if (!recorded) continue;
      const blocking = seen.longTasks
        .filter(([start]) => start >= seen.fcp)
        .reduce((sum, [, duration]) => sum + duration - 50, 0);
      console.log(`\n## ${path} (4× CPU, no network throttling)`);
      console.log(`FCP ${seen.fcp} ms, LCP ${seen.lcp} ms, blocking after FCP ${blocking} ms`);
      console.log(
        `long tasks (start ms, duration ms): ${seen.longTasks.map(([s, d]) => `${s}+${d}`).join(', ')}`,
      );
      console.log('\nlong animation frames (start+duration ms; scripts: invoker → function ms):');
      for (const frame of seen.frames) console.log(`- ${frame}`);
      console.log('\nby script (self ms):');
      for (const [key, ms] of selfTime(profile, (f) => fileOf(f.url) || f.functionName).slice(
        0,
        TOP,
      ))
        console.log(`${ms.toFixed(0).padStart(7)}  ${key}`);
      console.log('\nby function (self ms):');
      for (const [key, ms] of selfTime(
        profile,
        (f) => `${f.functionName || '(anonymous)'} ${fileOf(f.url)}:${f.lineNumber + 1}`,
      ).slice(0, TOP))
        console.log(`${ms.toFixed(0).padStart(7)}  ${key}`);
    }
  }
} finally {
  await browser.close();
  await demo.stop();
}
