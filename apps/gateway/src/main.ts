import { parseArgs } from 'node:util';
import { startGateway, type GatewayAgent } from './agent.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let file: string | undefined;
try {
  file = parseArgs({ options: { config: { type: 'string' } } }).values.config;
} catch (error) {
  fail(`gateway: ${(error as Error).message}`);
}
if (!file) fail('usage: node --import tsx apps/gateway/src/main.ts --config <file.json>');

let config: Config;
try {
  config = loadConfig(file);
} catch (error) {
  fail(error instanceof ConfigError ? error.message : `gateway: ${String(error)}`);
}

const agents: GatewayAgent[] = [];
let stopping = false;

async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    console.warn(`gateway: ${signal} again, exiting without a clean stop`);
    process.exit(1);
  }
  stopping = true;
  console.log(`gateway: ${signal}, stopping ${agents.length} gateway(s)`);
  await Promise.allSettled(agents.map((agent) => agent.stop()));
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

const { gateways, ...settings } = config;
for (const gateway of gateways) {
  if (stopping) break;
  try {
    agents.push(await startGateway(gateway, settings));
  } catch (error) {
    console.error(`gateway ${gateway.id}: cannot start: ${(error as Error).message}`);
    await Promise.allSettled(agents.map((agent) => agent.stop()));
    process.exit(1);
  }
}
console.log(`gateway: ${agents.length} gateway(s) running, ${settings.pollIntervalMs} ms poll`);
