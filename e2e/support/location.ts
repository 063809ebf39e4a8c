import type { Page } from 'playwright-core';

/** Where the phone is: path plus query, as the address bar would show it. */
export const currentPath = (page: Page): string => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};
