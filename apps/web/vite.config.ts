import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { appIcons, ICON_SIZES, iconFile } from './vite-app-icons.ts';
import { mapData } from './vite-map-data.ts';
import { routePreloads } from './vite-route-preloads.ts';

/*
 * What this build was made from: the web's and the contracts' sources, hashed (the same sources
 * give the same id, so builds stay reproducible). The last-known data a phone keeps for offline
 * (src/app/last-known.ts) is read only by the build that saved it.
 */
const buildId = (): string => {
  const hash = createHash('sha256');
  for (const dir of ['src', '../../packages/contracts/src']) {
    const root = join(import.meta.dirname, dir);
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
};

const server = `http://127.0.0.1:${process.env.LW_SERVER_PORT ?? 3000}`;

/*
 * The contracts build their zod schemas at module top level, so importing only a message or a
 * helper such as menuLabels would still pull all of zod (~25 KB gzip) into the first screen.
 * Building a schema has no side effects, so each top-level call initialiser in the contracts is
 * wrapped in a pure-annotated IIFE: evaluation order is unchanged, unused schemas can be dropped.
 */
const pureContractInitialisers = (): Plugin => ({
  name: 'linewatch:pure-contract-initialisers',
  apply: 'build',
  enforce: 'pre',
  transform(code, id) {
    if (!/[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+(?<!\.test)\.ts$/.test(id)) return null;
    const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
    const edits: { at: number; text: string }[] = [];
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer;
        if (!init || !(ts.isCallExpression(init) || ts.isNewExpression(init))) continue;
        edits.push({ at: init.getStart(source), text: '/* @__PURE__ */ (() => (' });
        edits.push({ at: init.getEnd(), text: '))()' });
      }
    }
    let out = code;
    for (const edit of edits.sort((a, b) => b.at - a.at))
      out = out.slice(0, edit.at) + edit.text + out.slice(edit.at);
    return { code: out, map: null };
  },
});

/*
 * The stylesheet goes into index.html as <style>: a linked stylesheet blocks the first paint until
 * it arrives, and the first paint is the page-loading markup index.html already holds, so it shows
 * one round trip earlier. (The CSP allows inline styles; scripts stay files.)
 */
const inlineEntryCss = (): Plugin => ({
  name: 'linewatch:inline-entry-css',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle }) {
      return html.replace(
        /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g,
        (link, file: string) => {
          const asset = bundle?.[file];
          if (asset?.type !== 'asset') return link;
          return `<style>${String(asset.source)}</style>`;
        },
      );
    },
  },
});

/** Modules the common chunk must not hold: barrels re-export everything, the rest load on demand. */
const ON_DEMAND_OR_BARREL =
  /antd-mobile[\\/]es[\\/]index|antd-mobile-icons[\\/]es[\\/]index|react-spring|use-gesture|[\\/]zod[\\/]|echarts|rc-field-form|async-validator|schemas/;

export default defineConfig({
  // Brotli and gzip copies beside each file, served as they are (no compression per request).
  plugins: [
    react(),
    pureContractInitialisers(),
    mapData(),
    inlineEntryCss(),
    routePreloads(),
    appIcons(),
    // The installable app and its service worker (src/sw/sw.ts; docs/architecture.md, "Offline").
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // Registered by the app after the page's load (app/service-worker.ts), not by a script
      // of the plugin's in the first screen.
      injectRegister: false,
      manifest: {
        name: 'Linewatch',
        short_name: '产线监控',
        description: '产线设备实时监控',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1677ff',
        icons: ICON_SIZES.map((size) => ({
          src: `/${iconFile(size)}`,
          sizes: `${size}x${size}`,
          type: 'image/png',
          purpose: 'any maskable',
        })),
      },
      injectManifest: {
        // The app shell, every route's shell and every chunk; not the .br/.gz copies (the
        // browser asks for the file and the server picks a copy), nor the map's GeoJSON (tens of
        // MB, fetched only when the map drills there), nor the build's records under .vite/.
        globPatterns: ['**/*.{js,html,png}'],
        globIgnores: ['.vite/**', 'map/**', 'sw.js'],
        // ECharts' chunk is ~1 MB before compression.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
    // Not the build's records under .vite/ (the chunk graph for bench/web), which nobody is sent.
    compression({ threshold: 1024, exclude: /^\.vite\//, logLevel: 'silent' }),
  ],
  // TITLE_SUFFIX (README's configuration table) is read at build time; npm start builds first.
  envPrefix: ['VITE_', 'TITLE_SUFFIX'],
  define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(buildId()) },
  resolve: {
    // lib/core is CommonJS whose default export arrives as a namespace object under ESM interop;
    // the package's own ES build of the same module keeps it a component.
    alias: [
      { find: /^echarts-for-react\/lib\/core$/, replacement: 'echarts-for-react/esm/core.js' },
    ],
  },
  build: {
    // Older in-app browsers (WeChat / DingTalk webviews) lag behind current Chrome and Safari.
    target: ['chrome87', 'safari14'],
    // All the app's CSS (≈ 14 KB gzip) in one sheet, which inlineEntryCss puts into index.html: a
    // stylesheet per lazy chunk was a request each (15 on the device list) on the phone's few
    // HTTP/1.1 connections, in the way of the page's scripts and its first data.
    cssCodeSplit: false,
    outDir: 'dist',
    // Chunk graph for bench/web (the first screen's JavaScript per route).
    manifest: true,
    // ECharts' core with a line chart is ~520 kB minified; it loads on demand with the charts, and
    // what counts, each first screen, is held to its budget by bench/web.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What every page runs first, in one file rather than a dozen: each file is a request
          // on the phone's few HTTP/1.1 connections.
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack[\\/]query-core|@tanstack[\\/]react-query|zustand|use-sync-external-store)[\\/]/,
            },
            {
              // What a dozen pages or more share (antd-mobile's base parts and icons, the app's
              // shared modules) in one file: automatic splitting made a file of each set of pages
              // that shares a module, 35–45 files of 0.1–2 KB per first screen, and Lighthouse's
              // slow 4G pays a round trip for every six of them. Only the shared modules
              // themselves, not what they import (the barrels and the big on-demand libraries
              // would bring every component into it).
              name: 'common',
              minShareCount: 12,
              includeDependenciesRecursively: false,
              test: (id: string) => !ON_DEMAND_OR_BARREL.test(id),
            },
          ],
        },
      },
    },
  },
  server: {
    // Host is kept so the server's same-origin check on WebSocket handshakes passes in dev.
    proxy: {
      '/api': { target: server },
      '/ws': { target: server, ws: true },
    },
  },
});
