import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['./src/test/global-setup.ts'],
    // The files of a worker share its modules instead of importing the server again each: the
    // import was a third of the suite's work (209 of 658 s summed in CI's PostgreSQL pass). Every
    // file starts its own servers, databases and brokers, and restores any fake timer it sets, so
    // nothing a file leaves in a module changes another's result (the suite passes either way,
    // embedded 390 → 320 s and PostgreSQL + Mosquitto 249 → 152 s here).
    isolate: false,
  },
});
