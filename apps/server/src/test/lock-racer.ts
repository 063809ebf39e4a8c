import { lockDataDir } from '../foundation/db/data-dir-lock.ts';

/**
 * A child process for the data-directory lock race (db.test.ts): on `{ dir }` it tries to lock
 * the directory and answers `{ won }`; `release` lets go of what it holds.
 */
let held: { release: () => void } | null = null;
process.on('message', (message: { dir: string } | 'release') => {
  if (message === 'release') {
    held?.release();
    held = null;
    process.send!('released');
    return;
  }
  try {
    held = lockDataDir(message.dir);
    process.send!({ won: true });
  } catch (error) {
    process.send!({ won: false, error: (error as Error).message });
  }
});
process.send!('ready');
