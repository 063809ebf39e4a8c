import type { FastifyBaseLogger } from 'fastify';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { writeDemoGatewayConfig } from './seed.ts';

// The gateway agent is its own app: the demo runs it as a process, exactly as on an edge box,
// through a launcher that ends it with the server (gateway-child.ts). Compiled (`npm start`,
// apps/server/build.mjs) both are plain JavaScript beside the server's bundle.
const COMPILED = import.meta.url.endsWith('.js');
const GATEWAY_COMMAND = COMPILED
  ? [
      fileURLToPath(new URL('./gateway-child.js', import.meta.url)),
      fileURLToPath(new URL('./gateway.js', import.meta.url)),
    ]
  : [
      '--import',
      'tsx',
      fileURLToPath(new URL('./gateway-child.ts', import.meta.url)),
      fileURLToPath(new URL('../../../gateway/src/main.ts', import.meta.url)),
    ];

/** Starts the demo factory's gateways in one child process and restarts it if it dies. */
export const startDemoGateways = (config: Config, mqttUrl: string, log: FastifyBaseLogger) => {
  const configFile = writeDemoGatewayConfig(config, mqttUrl);
  let child: ChildProcess | null = null;
  let stopped = false;
  let restarts = 0;

  const start = () => {
    child = spawn(process.execPath, [...GATEWAY_COMMAND, '--config', configFile], {
      // The IPC channel closes when this process dies, even by kill -9: the child then stops.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    // The channel must not keep the server alive either.
    child.channel?.unref();
    child.on('exit', (code, signal) => {
      child = null;
      if (stopped) return;
      const delay = Math.min(30_000, 1000 * 2 ** Math.min(restarts++, 5));
      log.warn({ code, signal, delay }, 'demo gateways exited; restarting');
      setTimeout(() => !stopped && start(), delay).unref();
    });
  };
  start();

  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopped = true;
        const running = child;
        if (!running) return resolve();
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      }),
  };
};
