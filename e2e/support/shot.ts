import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotDir } from './paths.ts';

export type Shot = (page: Page, name: string) => Promise<void>;

/**
 * Screenshots of one journey, numbered in the order taken:
 * screenshots/<journey>-<nn>-<name>.png. The journey's old pictures are removed first so the
 * folder always shows the last run.
 */
export const screenshotsFor = (journey: string): Shot => {
  mkdirSync(screenshotDir, { recursive: true });
  for (const file of readdirSync(screenshotDir)) {
    if (file.startsWith(`${journey}-`) && file.endsWith('.png')) {
      rmSync(join(screenshotDir, file));
    }
  }
  let taken = 0;
  return async (page, name) => {
    taken += 1;
    const file = `${journey}-${String(taken).padStart(2, '0')}-${name}.png`;
    // CSS transitions are fast-forwarded so the picture shows the settled screen.
    await page.screenshot({ path: join(screenshotDir, file), animations: 'disabled' });
    // Every screen is designed for a 375 px wide phone: nothing may push the page sideways.
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    if (scrollWidth > clientWidth) {
      throw new Error(`${file}: the page is ${scrollWidth} px wide on a ${clientWidth} px screen`);
    }
  };
};
