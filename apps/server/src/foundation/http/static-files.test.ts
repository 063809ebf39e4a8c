import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

// A web build as apps/web writes it: hashed assets with .br and .gz copies beside them. Each copy
// says which file was sent, so the test sees that the server picked the pre-compressed one.
const webDist = mkdtempSync(join(tmpdir(), 'lw-web-dist-'));
const ASSET = '/assets/app-Ab12Cd34.js';
const writeWithCopies = (path: string, text: (variant: string) => string) => {
  writeFileSync(join(webDist, path), text('plain'));
  writeFileSync(join(webDist, `${path}.br`), brotliCompressSync(text('br')));
  writeFileSync(join(webDist, `${path}.gz`), gzipSync(text('gzip')));
};
mkdirSync(join(webDist, 'assets'));
writeWithCopies(ASSET, (variant) => `console.log(${JSON.stringify(variant)});`);
writeWithCopies('/index.html', (variant) => `<!doctype html><title>${variant}</title>`);
// A route's own app shell (its chunks preloaded), as apps/web's vite-route-preloads.ts writes it.
mkdirSync(join(webDist, 'pages/faca'), { recursive: true });
writeWithCopies(
  '/pages/faca/task.html',
  (variant) => `<!doctype html><title>task ${variant}</title>`,
);

// The service worker and the web manifest, written at the root by vite-plugin-pwa.
writeFileSync(join(webDist, 'sw.js'), 'self.skipWaiting();');
writeFileSync(join(webDist, 'manifest.webmanifest'), '{"name":"Linewatch"}');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEB_DIST: webDist });
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (path: string, acceptEncoding: string) =>
  fetch(server.baseUrl + path, { headers: { 'accept-encoding': acceptEncoding } });

describe('the built web app', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ])('sends the pre-compressed copy for Accept-Encoding: %s', async (accepted, variant) => {
    const reply = await get(ASSET, accepted);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-encoding')).toBe(variant);
    expect(await reply.text()).toBe(`console.log("${variant}");`);
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const reply = await get(ASSET, 'identity');
    expect(reply.headers.get('content-encoding')).toBeNull();
    expect(await reply.text()).toBe('console.log("plain");');
  });

  it('lets phones keep hashed assets for a year, but revalidate the app shell', async () => {
    const asset = await get(ASSET, 'br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A history-mode route gets index.html, compressed as well.
    const page = await get('/deviceList', 'br');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe('<!doctype html><title>br</title>');
  });

  it('sends a route the build made a shell for that shell, compressed and revalidated', async () => {
    const page = await get('/faca/task?status=1', 'gzip');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toBe('<!doctype html><title>task gzip</title>');
    // Only the exact route: anything else is still the plain app shell.
    expect(await (await get('/faca/task/other', 'gzip')).text()).toBe(
      '<!doctype html><title>gzip</title>',
    );
  });

  it('sends the service worker as JavaScript, revalidated every time, allowed as a worker', async () => {
    const worker = await get('/sw.js', 'identity');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    // A cached sw.js would keep phones on an old build (and its precache) for the cache's life.
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('content-security-policy')).toMatch(/worker-src 'self'/);
  });

  it('sends the web manifest as a manifest', async () => {
    const manifest = await get('/manifest.webmanifest', 'identity');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(await manifest.json()).toEqual({ name: 'Linewatch' });
  });
});
