import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['journeys/**/*.journey.ts'],
    // One server (demo factory, live gateways) for the whole run.
    globalSetup: ['support/global-setup.ts'],
    // Journeys share that server and the machine's two cores: one at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A phone screen follows the network and the socket: give a condition time to come true.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
