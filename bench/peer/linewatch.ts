import { identityApi } from '@linewatch/contracts/identity-api';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { sockets as socketPaths } from '@linewatch/contracts/telemetry-api';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadConfig } from '../../apps/server/src/foundation/config/config.ts';
import { openDatabase } from '../../apps/server/src/foundation/db/database.ts';
import { BENCH_PASSWORD, benchSn, seedBenchFactory, TIMEZONE } from '../support/seed.ts';
import { freePort, startServer } from '../support/server.ts';
import { ROOT, stopChild, track, type Arrival, type Side } from './side.ts';

/** As bench/gateway/modbus.ts: gateways of at most 500 machines (one message per poll). */
const PER_GATEWAY = 500;
const SECRET = 'bench-secret-0123456789';

/**
 * Linewatch as `npm start` runs it (the built server, its embedded database and broker) and the
 * gateway agent polling `ports` (one FX5U each) once a second, every machine watched by a phone's
 * real-time socket (the socket /currentDataReport opens). An arrival's read time is the reading's
 * `updatedAt`, the time the agent's poll began (peer/run.ts finds the read it carried from it).
 */
export const startLinewatch = async ({
  ports,
  serverEntry,
  onArrival,
}: {
  ports: number[];
  serverEntry: string;
  onArrival: (arrival: Arrival) => void;
}): Promise<Side & { baseUrl: string; keyId: string; snOf: (machine: number) => string }> => {
  const gatewayCount = Math.ceil(ports.length / PER_GATEWAY);
  const perGateway = ports.length / gatewayCount;
  if (!Number.isInteger(perGateway))
    throw new Error(
      `${ports.length} machines do not share out evenly over ${gatewayCount} gateways`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'lw-bench-peer-'));
  const env = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    DEMO: '0',
    SECRET,
    LOG_LEVEL: 'warn',
    TIMEZONE,
  };
  const { db, close } = await openDatabase(loadConfig(env));
  const gatewayIds = await seedBenchFactory(db, {
    gateways: gatewayCount,
    machines: perGateway,
    secret: SECRET,
  });
  await close();
  const mqttPort = await freePort();
  const server = await startServer({ entry: serverEntry, env, mqttPort });

  const snOf = (machine: number) => benchSn(Math.floor(machine / perGateway), machine % perGateway);
  const config = join(dir, 'agent.json');
  writeFileSync(
    config,
    JSON.stringify({
      brokerUrl: `mqtt://127.0.0.1:${mqttPort}`,
      pollIntervalMs: 1000,
      gateways: gatewayIds.map((id, g) => ({
        id,
        password: SECRET,
        bufferDir: join(dir, `buffer-${g}`),
        machines: Array.from({ length: perGateway }, (_, m) => ({
          driver: 'modbus',
          sn: snOf(g * perGateway + m),
          plcIp: '127.0.0.1',
          port: ports[g * perGateway + m],
          plcModel: 'FX5U',
        })),
      })),
    }),
  );
  // As the agent runs on a gateway (its bin runs the sources through tsx).
  const agent = track(
    spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts', '--config', config], {
      cwd: ROOT,
      stdio: 'ignore',
    }),
  );

  const login = await fetch(`${server.baseUrl}${identityApi.wechatBindUser.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ psnCode: 'bench', passWord: encryptPassword(BENCH_PASSWORD) }),
  });
  const { keyId } = ((await login.json()) as { data: { keyId: string } }).data;
  const sockets: WebSocket[] = [];
  const open = (machine: number) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(
        `${server.baseUrl.replace('http', 'ws')}${socketPaths.realtime.path(snOf(machine))}`,
        { headers: { keyId } },
      );
      ws.once('open', () => {
        // A socket reset later is a phone gone (its reads count as not on screen), not a crash.
        ws.on('error', (error) => console.error(`phone ${machine}: ${error.message}`));
        resolve(ws);
      });
      ws.once('error', reject);
      // A reading reaches the screen with its first push; later pushes repeating it are not.
      let seen = 0;
      ws.on('message', (data: Buffer) => {
        const at = Date.now();
        const payload = JSON.parse(data.toString()) as RealtimePayload;
        if (!payload.updatedAt || payload.updatedAt <= seen) return;
        seen = payload.updatedAt;
        onArrival({ machine, at, readAt: payload.updatedAt });
      });
    });
  // 500 at a time: more at once overflow the listen backlog.
  for (let first = 0; first < ports.length; first += 500)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(500, ports.length - first) }, (_, k) => open(first + k)),
      )),
    );

  return {
    processes: { server: server.process.pid!, agent: agent.pid! },
    baseUrl: server.baseUrl,
    keyId,
    snOf,
    stop: async () => {
      for (const ws of sockets) ws.terminate();
      await stopChild(agent);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
