/** Messages between the main thread and the PGlite worker. */
export interface WorkerInit {
  dataDir?: string;
  /** A tarball from dumpDataDir to start from (tests clone a migrated template this way). */
  load?: Uint8Array;
}

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; txId?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; txId: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export interface WorkerError {
  message: string;
  code?: string | undefined;
  detail?: string | undefined;
  constraint?: string | undefined;
}

export type WorkerReply = { id: number; result?: unknown; error?: WorkerError };
