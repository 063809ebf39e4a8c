import type { FastifyBaseLogger } from 'fastify';
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../foundation/config/config.ts';
import { demoPlcCount, writeDemoGatewayConfig } from './seed.ts';

// The gateway agent and the simulated PLCs are their own app: the demo runs them as processes,
// exactly as on an edge box and a shop floor, through a launcher that ends them with the server
// (demo-child.ts). Compiled (`npm start`, apps/server/build.mjs) they are plain JavaScript beside
// the server's bundle.
const COMPILED = import.meta.url.endsWith('.js');
const source = (compiled: string, ts: string) =>
  fileURLToPath(new URL(COMPILED ? compiled : ts, import.meta.url));
const LAUNCHER = [
  ...(COMPILED ? [] : ['--import', 'tsx']),
  source('./demo-child.js', './demo-child.ts'),
];
const GATEWAY_MAIN = source('./gateway.js', '../../../gateway/src/main.ts');
const PLC_SIM_MAIN = source('./plc-sim.js', '../../../gateway/src/plc-sim/main.ts');

/** Distinct free ports on 127.0.0.1, all held at once while they are picked. */
const freePorts = async (count: number): Promise<number[]> => {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
};

/** Runs a demo process, restarting it (with backoff) whenever it dies, until stopped. */
const supervise = (name: string, args: string[], log: FastifyBaseLogger) => {
  let child: ChildProcess | null = null;
  let stopped = false;
  let restarts = 0;
  const start = () => {
    child = spawn(process.execPath, [...LAUNCHER, ...args], {
      // The IPC channel closes when this process dies, even by kill -9: the child then stops.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    // The channel must not keep the server alive either.
    child.channel?.unref();
    child.on('exit', (code, signal) => {
      child = null;
      if (stopped) return;
      const delay = Math.min(30_000, 1000 * 2 ** Math.min(restarts++, 5));
      log.warn({ code, signal, delay }, `demo ${name} exited; restarting`);
      setTimeout(() => !stopped && start(), delay).unref();
    });
  };
  start();
  return () =>
    new Promise<void>((resolve) => {
      stopped = true;
      const running = child;
      if (!running) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
};

/**
 * Starts the demo factory's simulated PLCs (one plc-sim process, a Modbus TCP server per machine)
 * and the gateways that poll them (one agent process), each restarted if it dies.
 */
export const startDemoGateways = (config: Config, mqttUrl: string, log: FastifyBaseLogger) => {
  const started = freePorts(demoPlcCount()).then((ports) => {
    const files = writeDemoGatewayConfig(config, mqttUrl, ports);
    return [
      supervise(
        'PLCs',
        [PLC_SIM_MAIN, '--plcs', files.plcs, '--state-dir', join(dirname(files.plcs), 'plc-state')],
        log,
      ),
      supervise('gateways', [GATEWAY_MAIN, '--config', files.gateways], log),
    ];
  });
  started.catch((error: unknown) => log.error({ err: error }, 'demo gateways not started'));
  return {
    stop: async () => {
      const stops = await started.catch(() => []);
      // The gateways first: they publish their offline state while their PLCs still answer.
      for (const stop of stops.reverse()) await stop();
    },
  };
};
