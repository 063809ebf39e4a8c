import { execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The broker configuration docs/deploy.md hands to operators. */
const DEPLOY = fileURLToPath(new URL('../../../../deploy/mosquitto/', import.meta.url));
/** The one user every server instance signs in as (deploy/mosquitto/servers.acl). */
export const SERVER_USER = 'linewatch-server';

const findProgram = (name: string): string => {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this one
    }
  }
  throw new Error(
    `${name} is not installed: this runs deploy/mosquitto/ in a real Mosquitto 2.0. ` +
      'Install it with `apt-get install -y mosquitto` (Debian; it brings mosquitto_passwd too).',
  );
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export interface DeployMosquitto {
  pid: number;
  /** The gateways' listener (use_username_as_clientid, gateways.acl). */
  gatewayPort: number;
  /** The servers' listener (servers.acl). */
  serverPort: number;
  /** What Mosquitto printed so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The machine's own Mosquitto on free loopback ports, configured with exactly the repository's
 * deploy/mosquitto/ files (only their paths and ports moved), with password files for these
 * gateways and the server user. Resolves once Mosquitto says it is running.
 */
export const startDeployMosquitto = async ({
  gateways,
  serverSecret,
}: {
  gateways: readonly { id: string; secret: string }[];
  serverSecret: string;
}): Promise<DeployMosquitto> => {
  const mosquitto = findProgram('mosquitto');
  const passwd = findProgram('mosquitto_passwd');
  const dir = mkdtempSync(join(tmpdir(), 'lw-mosquitto-'));
  // Started as root, Mosquitto reads its files as the `mosquitto` user.
  chmodSync(dir, 0o755);
  const passwords = (file: string, users: readonly { id: string; secret: string }[]) => {
    const lines = users.map((u) => `${u.id}:${u.secret}`).join('\n');
    writeFileSync(join(dir, file), `${lines}\n`);
    // Hashed in place (-U), one run for any number of users.
    execFileSync(passwd, ['-U', join(dir, file)]);
    chmodSync(join(dir, file), 0o644);
  };
  passwords('gateways.passwd', gateways);
  passwords('servers.passwd', [{ id: SERVER_USER, secret: serverSecret }]);
  for (const acl of ['gateways.acl', 'servers.acl'])
    writeFileSync(join(dir, acl), readFileSync(join(DEPLOY, acl)));

  const [gatewayPort, serverPort] = [await freePort(), await freePort()];
  const conf = readFileSync(join(DEPLOY, 'linewatch.conf'), 'utf8');
  const moved = conf
    .replaceAll('/etc/mosquitto/linewatch/', `${dir}/`)
    .replace(/^listener 1883$/m, `listener ${gatewayPort} 127.0.0.1`)
    .replace(/^listener 1884$/m, `listener ${serverPort} 127.0.0.1`);
  if (
    moved.match(/^listener \d+ 127\.0\.0\.1$/gm)?.length !== 2 ||
    moved.includes('/etc/mosquitto/linewatch/')
  )
    throw new Error('deploy/mosquitto/linewatch.conf no longer has the two listeners it had');
  writeFileSync(join(dir, 'mosquitto.conf'), moved);

  const broker = spawn(mosquitto, ['-c', join(dir, 'mosquitto.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  broker.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  broker.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise((resolve) => broker.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mosquitto did not start:\n${log}`)), 10_000);
    const check = () => {
      if (/ running/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    broker.stdout.on('data', check);
    broker.stderr.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`mosquitto exited:\n${log}`));
    });
  });
  return {
    pid: broker.pid!,
    gatewayPort,
    serverPort,
    log: () => log,
    stop: async () => {
      if (broker.exitCode === null) broker.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
