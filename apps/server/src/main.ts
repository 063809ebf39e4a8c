import { ConfigError, loadConfig } from './foundation/config/config.ts';
import { buildApp } from './app.ts';
import { BrokerPortInUseError } from './foundation/broker/embedded-broker.ts';
import { DataDirLockedError } from './foundation/db/data-dir-lock.ts';
import { demoSignIns } from './demo/seed.ts';
import { startDemoGateways } from './demo/simulators.ts';

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    return fail(error instanceof ConfigError ? error.message : String(error));
  }
})();

const linewatch = await buildApp(config).catch((error: unknown) => {
  if (error instanceof DataDirLockedError || error instanceof BrokerPortInUseError)
    return fail(error.message);
  throw error;
});
await linewatch.app.listen({ port: config.PORT, host: config.HOST });
const address = linewatch.app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;

const gateways = config.DEMO
  ? startDemoGateways(config, linewatch.mqttUrl, linewatch.app.log)
  : null;

console.log(`\nLinewatch is running: http://localhost:${port}/`);
console.log(
  `  database: ${linewatch.database.kind === 'pglite' ? `embedded (${config.DATA_DIR})` : 'PostgreSQL'}`,
);
console.log(`  MQTT: ${linewatch.mqttUrl}${linewatch.broker ? ' (embedded broker)' : ''}`);
if (config.DEMO) {
  console.log('  demo sign-ins:');
  for (const s of demoSignIns) console.log(`    ${s.label}: ${s.psnCode} / ${s.password}`);
}

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  linewatch.app.log.info({ signal }, 'shutting down');
  await gateways?.stop();
  await linewatch.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
