import type { Reporter, TestModule } from 'vitest/node';

/**
 * Names the test files that started and never ended. When a worker process dies (a native crash,
 * a signal, an exit) Vitest reports only "Worker exited unexpectedly", without the file, and its
 * summary counts one file fewer; CI shows the tail of the output, so this prints last.
 */
export default class UnfinishedFiles implements Reporter {
  #running = new Map<string, number>();

  onTestModuleStart(module: TestModule) {
    this.#running.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module: TestModule) {
    this.#running.delete(module.moduleId);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const unfinished = modules.filter((m) => !['passed', 'failed', 'skipped'].includes(m.state()));
    const ids = new Set([...this.#running.keys(), ...unfinished.map((m) => m.moduleId)]);
    if (ids.size === 0) return;
    const now = Date.now();
    console.error(`\n${ids.size} test file(s) did not finish (a worker that died runs no more):`);
    for (const id of ids) {
      const started = this.#running.get(id);
      const state = modules.find((m) => m.moduleId === id)?.state() ?? 'unknown';
      console.error(
        `  ${id} (${state}${started ? `, started ${Math.round((now - started) / 1000)} s before the end` : ''})`,
      );
    }
  }
}
