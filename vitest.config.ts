import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    // Vitest's default in a run is one worker per core less one: a single worker on CI's two cores.
    // Most integration files spend their time waiting on sockets, brokers and child processes, so
    // three workers keep both cores busy.
    maxWorkers: 3,
    // The default reporter, and the files a dead worker left unfinished (scripts/vitest-unfinished.ts).
    reporters: ['default', './scripts/vitest-unfinished.ts'],
  },
});
