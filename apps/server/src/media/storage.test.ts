import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskStorage } from './storage.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'lw-storage-test-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('disk media storage', () => {
  it('reserves a staging path without opening it, so another writer can fill it', async () => {
    // A thumbnail is written by sharp to a staged path. A stream opened there too (with 'wx')
    // would fail with EEXIST once sharp had created the file: an uncaught error in the server.
    const storage = createDiskStorage(dataDir);
    const staged = await storage.stage();
    await tick();
    await tick();
    expect(existsSync(staged.path)).toBe(false);
    await writeFile(staged.path, 'thumbnail');
    await storage.commit(staged.path, 'ab'.repeat(16) + '.thumb');
    const stored = await storage.open('ab'.repeat(16) + '.thumb');
    expect(stored?.size).toBe('thumbnail'.length);
    stored?.stream.destroy();
  });

  it('writes an upload through its staging stream and stores it only on commit', async () => {
    const storage = createDiskStorage(dataDir);
    const staged = await storage.stage();
    const stream = staged.write();
    await new Promise<void>((resolve, reject) =>
      stream.end('picture', () => resolve()).on('error', reject),
    );
    expect(await storage.open('cd'.repeat(16))).toBeNull();
    await storage.commit(staged.path, 'cd'.repeat(16));
    expect(await readFile(join(dataDir, 'media', 'files', 'cd', 'cd'.repeat(16)), 'utf8')).toBe(
      'picture',
    );
  });
});
