import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerError, WorkerInit, WorkerReply, WorkerRequest } from './pglite-protocol.ts';

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = Distribute<WorkerRequest>;

interface QueryResult {
  rows: unknown[];
  affectedRows?: number;
}

interface Queryable {
  query(sql: string, params?: unknown[], options?: unknown): Promise<QueryResult>;
}

class DatabaseError extends Error {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly constraint: string | undefined;
  constructor(error: WorkerError) {
    super(error.message);
    this.name = 'DatabaseError';
    this.code = error.code;
    this.detail = error.detail;
    this.constraint = error.constraint;
  }
}

/**
 * The worker's JavaScript only relays queries and rows: V8's default young generation (up to
 * 3 × 16 MB) fills with short-lived rows under load and stays resident. 8 MB saves ≈ 20 MB of
 * RSS at no measurable cost (docs/benchmarks.md). PGlite's own memory is WebAssembly memory,
 * which these limits do not cover.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * Compiled (`npm start`, apps/server/build.mjs) the worker is dist/pglite-worker.js beside the
 * bundle. From sources it is TypeScript, and Node 20 does not pass loader hooks on to workers:
 * it is loaded through tsx's API whether we run under tsx, vitest or plain node.
 */
const startWorker = (init: WorkerInit): Worker => {
  const options = { workerData: init, resourceLimits: WORKER_LIMITS };
  if (import.meta.url.endsWith('.js'))
    return new Worker(new URL('./pglite-worker.js', import.meta.url), options);
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  // the ESM build of 'tsx/esm/api' (require.resolve would pick the CommonJS one)
  const tsxApi = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./pglite-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(bootstrap, { eval: true, ...options });
};

/**
 * The subset of PGlite's API that Kysely's PGliteDialect uses, forwarded to a worker thread
 * (see pglite-worker.ts for why).
 */
export class PGliteProxy implements Queryable {
  ready = false;
  closed = false;
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #nextId = 1;

  constructor(init: WorkerInit) {
    this.#worker = startWorker(init);
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#pending.set(0, {
        resolve: () => {
          this.ready = true;
          resolve();
        },
        reject,
      });
      this.#worker.once('error', reject);
    });
    this.#worker.on('message', (reply: WorkerReply) => {
      const waiter = this.#pending.get(reply.id);
      if (!waiter) return;
      this.#pending.delete(reply.id);
      if (reply.error) waiter.reject(new DatabaseError(reply.error));
      else waiter.resolve(reply.result);
    });
    this.#worker.on('exit', (code) => {
      this.closed = true;
      for (const waiter of this.#pending.values())
        waiter.reject(new Error(`database worker exited (${code})`));
      this.#pending.clear();
    });
  }

  #call<T>(request: Request): Promise<T> {
    if (this.closed) return Promise.reject(new Error('database is closed'));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  query(sql: string, params: unknown[] = []): Promise<QueryResult> {
    return this.#call({ op: 'query', sql, params });
  }

  exec(sql: string): Promise<void> {
    return this.#call({ op: 'exec', sql });
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const txId = await this.#call<number>({ op: 'begin' });
    const tx: Queryable = {
      query: (sql, params = []) => this.#call({ op: 'query', sql, params, txId }),
    };
    try {
      const result = await fn(tx);
      await this.#call({ op: 'end', txId, commit: true });
      return result;
    } catch (error) {
      await this.#call({ op: 'end', txId, commit: false });
      throw error;
    }
  }

  dump(): Promise<Uint8Array> {
    return this.#call({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.#call({ op: 'close' });
    } finally {
      this.closed = true;
      await this.#worker.terminate();
    }
  }
}
