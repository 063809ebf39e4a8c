import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const screenshotDir = fileURLToPath(new URL('../screenshots', import.meta.url));
