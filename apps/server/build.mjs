// Compiles the server to plain JavaScript for `npm start` (tests run the TypeScript sources).
// One ES module per process or thread: the server, its PGlite worker, the demo processes' launcher,
// the gateway agent and the simulated PLCs. Packages from node_modules stay external; our own (@linewatch/*, whose
// exports are TypeScript) are bundled.
import { build } from 'esbuild';
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// `node build.mjs [outdir]`: the build test writes elsewhere than `npm start` reads.
const outdir = process.argv[2] ? `${process.argv[2].replace(/\/$/, '')}/` : here('./dist/');

/** @type {import('esbuild').Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@linewatch/') ? undefined : { path: args.path, external: true },
    );
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: here('./src/main.ts'),
    'pglite-worker': here('./src/foundation/db/pglite-worker.ts'),
    'demo-child': here('./src/demo/demo-child.ts'),
    gateway: here('../gateway/src/main.ts'),
    'plc-sim': here('../gateway/src/plc-sim/main.ts'),
  },
  outdir,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  plugins: [externalPackages],
  logLevel: 'warning',
});
await cp(here('./src/foundation/db/migrations/'), `${outdir}migrations/`, { recursive: true });
console.log(`server built into ${outdir}`);
