import type { TestProject } from 'vitest/node';
import { assertChromium } from './browser.ts';
import { startServer } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** One server for the whole run: a first start seeds the demo factory (~10–20 s). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertChromium();
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return server.stop;
}
