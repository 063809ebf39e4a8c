import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'gateway', environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
});
