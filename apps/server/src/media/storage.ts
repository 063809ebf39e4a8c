import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where uploaded files live. An upload is written to a local staging file first (its content is
 * sniffed there) and becomes visible under its key only by `commit`; so an object store can
 * replace the DATA_DIR implementation behind the same four calls.
 */
export interface MediaStorage {
  /**
   * A fresh local path to receive an upload; nothing is stored until `commit`. The path is only
   * reserved: `write()` opens it, and a path another writer fills (a thumbnail) is never opened here.
   */
  stage(): Promise<{ path: string; write: () => WriteStream }>;
  /** Moves a staged file into place under `key` (a generated name, never the client's). */
  commit(stagedPath: string, key: string): Promise<void>;
  /** Forgets a staged file (a refused upload). */
  discard(stagedPath: string): Promise<void>;
  /** The stored file, or null when there is none. */
  open(key: string): Promise<{ stream: ReadStream; size: number } | null>;
  remove(key: string): Promise<void>;
  /**
   * Removes staging files untouched for `olderThanMs` (a server killed mid-upload left them;
   * an upload in progress keeps writing its own), answering how many.
   */
  sweepStaging(olderThanMs: number, now?: number): Promise<number>;
}

const KEY = /^[0-9a-f]{32}(\.thumb)?$/;

/** Files under `<dataDir>/media/files/<first two hex>/<key>`, staged in `<dataDir>/media/tmp`. */
export const createDiskStorage = (dataDir: string): MediaStorage => {
  const root = join(dataDir, 'media');
  const tmp = join(root, 'tmp');
  const fileOf = (key: string) => {
    // Keys are generated here; the check keeps a bug elsewhere from ever reaching outside root.
    if (!KEY.test(key)) throw new Error(`bad media key ${key}`);
    return join(root, 'files', key.slice(0, 2), key);
  };
  return {
    async stage() {
      await mkdir(tmp, { recursive: true });
      const path = join(tmp, randomBytes(16).toString('hex'));
      return { path, write: () => createWriteStream(path, { flags: 'wx', mode: 0o600 }) };
    },
    async commit(stagedPath, key) {
      const target = fileOf(key);
      await mkdir(join(target, '..'), { recursive: true });
      await rename(stagedPath, target);
    },
    discard: (stagedPath) => rm(stagedPath, { force: true }),
    async open(key) {
      const path = fileOf(key);
      try {
        const { size } = await stat(path);
        return { stream: createReadStream(path), size };
      } catch {
        return null;
      }
    },
    remove: (key) => rm(fileOf(key), { force: true }),
    async sweepStaging(olderThanMs, now = Date.now()) {
      let names: string[];
      try {
        names = await readdir(tmp);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(tmp, name);
        // Gone meanwhile (committed or discarded by the upload that owns it): nothing to do.
        const info = await stat(path).catch(() => null);
        if (info?.isFile() && now - info.mtimeMs > olderThanMs) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
};
