import { telemetryApi } from '@linewatch/contracts/telemetry-api';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.ts';

interface RunningServer {
  baseUrl: string;
  /** The port of a demo machine's simulated PLC (the demo's plc-sim file), as its label says on site. */
  demoPlcPort: (sn: string) => number;
  stop: () => Promise<void>;
}

const START_TIMEOUT_MS = 90_000;
const LIVE_DATA_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Variables that would point the server at shared infrastructure instead of its own temp data. */
const INHERITED_BUT_NOT_WANTED = [
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'MQTT_URL',
  'MQTT_USERNAME',
  'MQTT_PASSWORD',
  'WEB_DIST',
  'PUBLIC_URL',
];

const serverEnv = (dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_BUT_NOT_WANTED) delete env[name];
  return {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    // Mosquitto holds 1883 on the development machines: let the embedded broker pick a port.
    MQTT_PORT: '0',
    DATA_DIR: dataDir,
    DEMO: '1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
};

const waitForExit = (child: ChildProcess, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/** Resolves with the address the server prints once it listens; rejects if it exits first. */
const waitForAddress = (child: ChildProcess, output: () => string): Promise<string> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(`the server printed no address within ${START_TIMEOUT_MS} ms:\n${output()}`),
      );
    }, START_TIMEOUT_MS);
    const onData = () => {
      const match = /Linewatch is running: (http:\/\/\S+?)\/?\s/.exec(output());
      if (!match?.[1]) return;
      cleanup();
      // The server listens on 127.0.0.1 only; "localhost" may resolve to ::1 first.
      resolve(match[1].replace('//localhost:', '//127.0.0.1:'));
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(
        new Error(
          `the server exited (code ${code}, signal ${signal}) before listening:\n${output()}`,
        ),
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });

/**
 * A port free now, for a server whose own address must be known before it starts (PUBLIC_URL,
 * which WeChat sign-in requires). Another process could take it meanwhile; on this machine's
 * test runs none does.
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

interface Health {
  data?: { ingest?: { accepted?: number } };
}

/** The demo gateways need a few seconds to connect and publish; journeys want live machines. */
const waitForLiveData = async (baseUrl: string): Promise<void> => {
  const deadline = Date.now() + LIVE_DATA_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const reply = await fetch(`${baseUrl}${telemetryApi.health.path}`);
      const health = (await reply.json()) as Health;
      const accepted = health.data?.ingest?.accepted ?? 0;
      if (accepted > 0) return;
      last = JSON.stringify(health);
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `no telemetry was accepted within ${LIVE_DATA_TIMEOUT_MS} ms; last /healthz: ${last}`,
  );
};

/**
 * Starts the real server (built web app, embedded database and broker, demo factory with live
 * gateways) on random ports and a fresh data directory; `extraEnv` adds settings (the WeChat and
 * DingTalk fakes' addresses).
 */
export const startServer = async (
  extraEnv: Record<string, string> = {},
): Promise<RunningServer> => {
  const webIndex = join(repoRoot, 'apps/web/dist/index.html');
  if (!existsSync(webIndex)) {
    throw new Error(
      `The web app is not built (${webIndex} is missing): run \`npm run build -w @linewatch/web\` first.`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'linewatch-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: serverEnv(dataDir, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a server that ignores SIGTERM goes with its gateway child.
    detached: true,
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const baseUrl = await waitForAddress(child, () => log);
    await waitForLiveData(baseUrl);
    const demoPlcPort = (sn: string) => {
      const plcs = JSON.parse(readFileSync(join(dataDir, 'demo', 'plcs.json'), 'utf8')) as {
        sn: string;
        port: number;
      }[];
      const plc = plcs.find((p) => p.sn === sn);
      if (!plc) throw new Error(`the demo has no simulated PLC for ${sn}`);
      return plc.port;
    };
    return { baseUrl, demoPlcPort, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
