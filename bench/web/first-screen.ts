/*
 * First-screen JavaScript per page (docs/design.md section 7: ≤ 150 KB gzip; charts and maps load on
 * demand). A page's first screen is what the build lists for its route in
 * apps/web/dist/.vite/route-chunks.json (apps/web/vite-route-preloads.ts, which also preloads
 * them from the route's app shell): the entry with its static imports plus the lazy chunks the
 * route renders — the page's and those of the lazy layouts around it (tab bar, device tabs, admin
 * gate), as routes.tsx nests them — each with its static imports; what a page loads later by
 * import() is not counted. Sizes are those of the .gz and .br files the build wrote beside each
 * chunk, which is what the server sends.
 *
 *   npm run build && npm run first-screen -w @linewatch/bench
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_GZIP_BYTES = 150_000;

const dist = fileURLToPath(new URL('../../apps/web/dist/', import.meta.url));
const routesPath = join(dist, '.vite/route-chunks.json');
if (!existsSync(routesPath)) {
  console.error(`${routesPath} is missing: run npm run build first`);
  process.exit(1);
}
// Each entry as apps/web's RouteChunks: { path, page, files } (what this reads of it).
const routes = JSON.parse(readFileSync(routesPath, 'utf8')) as { page: string; files: string[] }[];
// /threeParam is the history page again: one line per page.
const pages = new Map(routes.map((route) => [route.page, route.files]));

/** Size of the compressed copy the server sends (the plain file when it was too small to pack). */
const sentBytes = (file: string, extension: '.gz' | '.br') => {
  const packed = join(dist, file + extension);
  return statSync(existsSync(packed) ? packed : join(dist, file)).size;
};

const kb = (bytes: number) => (bytes / 1000).toFixed(1).padStart(6);
console.log('page                                            gzip KB  brotli KB  chunks');
let over = 0;
for (const [page, files] of [...pages].sort(([a], [b]) => a.localeCompare(b))) {
  const gzip = files.reduce((sum, file) => sum + sentBytes(file, '.gz'), 0);
  const brotli = files.reduce((sum, file) => sum + sentBytes(file, '.br'), 0);
  const mark = gzip > BUDGET_GZIP_BYTES ? '  OVER BUDGET' : '';
  if (mark) over++;
  console.log(
    `${page.replace(/^src\/features\//, '').padEnd(46)} ${kb(gzip)}    ${kb(brotli)}  ${String(files.length).padStart(6)}${mark}`,
  );
}
console.log(`budget: ${BUDGET_GZIP_BYTES / 1000} KB gzip per first screen`);
process.exitCode = over > 0 ? 1 : 0;
