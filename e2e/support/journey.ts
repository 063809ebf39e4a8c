import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, onTestFailed } from 'vitest';
import { launchBrowser, newPhone } from './browser.ts';
import { screenshotsFor, type Shot } from './shot.ts';

/** How long a step waits for the screen before it fails. */
const STEP_TIMEOUT_MS = 20_000;

interface Journey {
  readonly page: Page;
  readonly shot: Shot;
}

/**
 * One user story: a phone for the whole file, steps (`it`) that run in order, and no further
 * steps once one fails — the story cannot go on, and the later failures would only be noise.
 * A failing step leaves a `…-failed-<step>.png` of what the phone showed.
 */
export const useJourney = (name: string, { userAgent }: { userAgent?: string } = {}): Journey => {
  const shot = screenshotsFor(name);
  let browser: Browser | undefined;
  let page: Page | undefined;
  let broken = false;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    // A fresh phone: no cookies or storage from another journey.
    const context = await newPhone(browser, inject('baseUrl'), userAgent);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach((context) => {
    if (broken) context.skip();
    onTestFailed(async () => {
      broken = true;
      if (page && !page.isClosed()) {
        const step = context.task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 40);
        await shot(page, `failed-${step}`).catch(() => undefined);
      }
    });
  });

  // An uncaught error in the page fails the step it happened in, even if the screen looked fine.
  afterEach(() => {
    const errors = pageErrors.splice(0);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  return {
    get page() {
      if (!page) throw new Error('the phone is not open yet');
      return page;
    },
    shot,
  };
};
