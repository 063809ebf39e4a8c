import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { cpuSeconds } from './side.ts';

/** Each process's parent, and its name (/proc/<pid>/stat fields 2 and 4). */
const processTable = () =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return [{ pid: Number(name), ppid, comm }];
      } catch {
        return [];
      }
    });

/** This process's chromium descendants (the browser, its renderers and its utility processes). */
const chromiumPids = () => {
  const table = processTable();
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of table)
      if (mine.has(p.ppid) && !mine.has(p.pid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return table.filter((p) => mine.has(p.pid) && /chrom/i.test(p.comm)).map((p) => p.pid);
};

/** CPU seconds so far of every chromium process of this bench (those alive now). */
const chromiumCpu = () =>
  chromiumPids().reduce((sum, pid) => {
    try {
      return sum + cpuSeconds(pid);
    } catch {
      return sum;
    }
  }, 0);

export interface PhonePage {
  /** The browser's CPU since the last call (or since the page loaded), in % of one core. */
  cpuPercent(): number;
  screenshot(path: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * One product's page on a phone-sized screen in Debian's chromium (headless), left open: its CPU
 * is what showing the live values costs the phone.
 */
export const openPhonePage = async (
  url: string,
  cookie?: { name: string; value: string },
): Promise<PhonePage> => {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({
    viewport: { width: 375, height: 667 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  if (cookie) await context.addCookies([{ ...cookie, url }]);
  const page = await context.newPage();
  // Loaded, then its sockets open and its first values drawn.
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(3000);
  let [cpu, at] = [chromiumCpu(), Date.now()];
  return {
    cpuPercent: () => {
      const [now, nowAt] = [chromiumCpu(), Date.now()];
      const percent = ((now - cpu) / ((nowAt - at) / 1000)) * 100;
      [cpu, at] = [now, nowAt];
      return Math.round(percent);
    },
    screenshot: (path) => page.screenshot({ path }),
    close: () => browser.close(),
  };
};
