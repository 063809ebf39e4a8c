/*
 * Hosts PGlite in a worker thread. PGlite runs queries synchronously inside WASM, so on the main
 * thread a long query would stall MQTT intake and sockets; here it only stalls this worker.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerInit, WorkerReply, WorkerRequest } from './pglite-protocol.ts';

const port = parentPort!;
const init = workerData as WorkerInit;

const db = await PGlite.create({
  // PostgreSQL's default 128 MB of shared buffers lives in the WASM heap, on top of the OS page
  // cache that already holds the files: 32 MB keeps the server near its memory budget
  // (docs/benchmarks.md) at little cost in ingest rate.
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  ...(init.dataDir ? { dataDir: init.dataDir } : {}),
  ...(init.load ? { loadDataDir: new Blob([new Uint8Array(init.load)]) } : {}),
});

const openTransactions = new Map<
  number,
  { tx: Transaction; finish: (commit: boolean) => void; done: Promise<void> }
>();
let nextTx = 1;

const serializeError = (error: unknown) => {
  const e = error as Record<string, unknown>;
  return {
    message: String(e.message ?? error),
    code: typeof e.code === 'string' ? e.code : undefined,
    detail: typeof e.detail === 'string' ? e.detail : undefined,
    constraint: typeof e.constraint === 'string' ? e.constraint : undefined,
  };
};

const handle = async (req: WorkerRequest): Promise<unknown> => {
  switch (req.op) {
    case 'query': {
      const target = req.txId ? openTransactions.get(req.txId)?.tx : db;
      if (!target) throw new Error(`transaction ${req.txId} is not open`);
      const result = await target.query(req.sql, req.params, { rowMode: 'object' });
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case 'exec':
      await db.exec(req.sql);
      return null;
    case 'begin': {
      const txId = nextTx++;
      let finish!: (commit: boolean) => void;
      const decided = new Promise<boolean>((resolve) => (finish = resolve));
      const begun = new Promise<void>((resolve, reject) => {
        const done = db
          .transaction(async (tx) => {
            openTransactions.set(txId, { tx, finish, done });
            resolve();
            if (!(await decided)) await tx.rollback();
          })
          .then(() => undefined);
        done.catch(reject);
      });
      await begun;
      return txId;
    }
    case 'end': {
      const open = openTransactions.get(req.txId);
      if (!open) throw new Error(`transaction ${req.txId} is not open`);
      openTransactions.delete(req.txId);
      open.finish(req.commit);
      await open.done;
      return null;
    }
    case 'dump': {
      const file = await db.dumpDataDir('none');
      return new Uint8Array(await file.arrayBuffer());
    }
    case 'close':
      await db.exec('CHECKPOINT');
      await db.close();
      return null;
  }
};

port.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (result) => port.postMessage({ id: req.id, result } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({ id: req.id, error: serializeError(error) } satisfies WorkerReply),
  );
});
port.postMessage({ id: 0, result: 'ready' } satisfies WorkerReply);
