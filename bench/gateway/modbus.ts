/*
 * PLC-driven agent benchmark (issues 10, 24): how many machines one gateway agent polls at 1 Hz on
 * one core through real PLC reads, and the agent's memory; with --model, over OPC UA or S7 too,
 * and with --poll-ms below 1000, the reads per second one agent sustains (few PLCs, read fast).
 *
 * For each machine count N: a plc-sim process serves N simulated FX5U PLCs (one Modbus TCP server
 * each, 127.0.0.1), the agent (`apps/gateway`, its own process, pinned to one core with taskset
 * where there is one) polls them once a second — gateways of at most 500 machines, so one poll of
 * a gateway is one telemetry message — and publishes to the embedded broker of this process, which
 * acknowledges every message as the server does. Every reading is sent (heartbeat 1 ms), so the
 * readings received per second are the Modbus reads the agent completed.
 *
 *   npm run modbus -w @linewatch/bench -- [--machines 250,500,1000,2000] [--seconds 20] [--warmup 10]
 *     [--model FX5U | OPCUA-LW | S7-1200-S7] [--poll-ms 1000] [--subscribe true|false]
 *
 * The OPC UA and S7 PLCs are node-opcua's and snap7's servers (plc-sim), one per machine.
 */
import { parseTopic, telemetryMessage } from '@linewatch/contracts/mqtt';
import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { publishAck } from '../../apps/server/src/foundation/broker/bus.ts';
import { startEmbeddedBroker } from '../../apps/server/src/foundation/broker/embedded-broker.ts';

const { values: args } = parseArgs({
  options: {
    machines: { type: 'string', default: '250,500,1000,2000' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '10' },
    model: { type: 'string', default: 'FX5U' },
    'poll-ms': { type: 'string', default: '1000' },
    subscribe: { type: 'string', default: 'true' },
  },
});
const MODEL = args.model;
const PROTOCOL = plcProfiles[MODEL]?.protocol;
if (!PROTOCOL) throw new Error(`unknown --model ${MODEL}`);
const POLL_MS = Number(args['poll-ms']);
const COUNTS = args.machines.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const PER_GATEWAY = 500;
const root = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim() || 100);
const pinned = spawnSync('taskset', ['-c', '1', 'true']).status === 0;

const freePorts = async (count: number): Promise<number[]> => {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve) => {
          const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
};

const cpuSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
};
const rssMb = (pid: number) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const broker = await startEmbeddedBroker({
  port: 0,
  host: '127.0.0.1',
  verifyGateway: async () => true,
});
const bus = broker.inProcessBus();
let readings = 0;
await bus.subscribe('telemetry', (topic, payload) => {
  const message = telemetryMessage.parse(JSON.parse(payload.toString()));
  readings += message.readings.length;
  publishAck(bus, parseTopic(topic)!.gatewayId, { seq: message.seq });
});

const results = [];
for (const count of COUNTS) {
  const dir = mkdtempSync(join(tmpdir(), 'lw-bench-modbus-'));
  const ports = await freePorts(count);
  const sns = ports.map((_, i) => `BM-${String(i).padStart(5, '0')}`);
  writeFileSync(
    join(dir, 'plcs.json'),
    JSON.stringify(
      ports.map((port, i) => ({ port, model: MODEL, sn: sns[i], ppmTarget: 60, faultRate: 0.02 })),
    ),
  );
  const gateways = Array.from({ length: Math.ceil(count / PER_GATEWAY) }, (_, g) => ({
    id: `BENCHMB${String(g).padStart(5, '0')}`,
    password: 'bench',
    bufferDir: join(dir, `buffer-${g}`),
    machines: ports.slice(g * PER_GATEWAY, (g + 1) * PER_GATEWAY).map((port, i) => ({
      driver: PROTOCOL,
      sn: sns[g * PER_GATEWAY + i],
      plcIp: '127.0.0.1',
      port,
      plcModel: MODEL,
      ...(PROTOCOL === 'opcua' && { subscribe: args.subscribe === 'true' }),
    })),
  }));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      brokerUrl: broker.url,
      pollIntervalMs: POLL_MS,
      heartbeatMs: 1,
      readingsPerMessage: PER_GATEWAY,
      gateways,
    }),
  );

  const plcs = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/gateway/src/plc-sim/main.ts', '--plcs', join(dir, 'plcs.json')],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let listening = 0;
    plcs.stdout.on('data', (chunk: Buffer) => {
      listening += chunk
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('listening')).length;
      if (listening === count) resolve();
    });
    plcs.once('exit', (code) => reject(new Error(`plc-sim exited ${code}`)));
  });
  const agentArgs = [
    '--import',
    'tsx',
    'apps/gateway/src/main.ts',
    '--config',
    join(dir, 'agent.json'),
  ];
  const agent = pinned
    ? spawn('taskset', ['-c', '1', process.execPath, ...agentArgs], { cwd: root, stdio: 'ignore' })
    : spawn(process.execPath, agentArgs, { cwd: root, stdio: 'ignore' });

  await sleep(WARMUP * 1000);
  const startedReadings = readings;
  const startedCpu = cpuSeconds(agent.pid!);
  const startedAt = Date.now();
  let rssPeak = 0;
  while (Date.now() - startedAt < SECONDS * 1000) {
    rssPeak = Math.max(rssPeak, rssMb(agent.pid!));
    await sleep(1000);
  }
  const elapsed = (Date.now() - startedAt) / 1000;
  const result = {
    model: MODEL,
    ...(PROTOCOL === 'opcua' && { subscribe: args.subscribe === 'true' }),
    machines: count,
    pollMs: POLL_MS,
    readsPerSecond: Math.round((readings - startedReadings) / elapsed),
    agentCpuOfOneCore: Number(((cpuSeconds(agent.pid!) - startedCpu) / elapsed).toFixed(2)),
    agentRssPeakMb: Math.max(rssPeak, rssMb(agent.pid!)),
    plcSimRssMb: rssMb(plcs.pid!),
    pinnedToOneCore: pinned,
  };
  console.log(JSON.stringify(result));
  results.push(result);
  await stop(agent);
  await stop(plcs);
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ load: readFileSync('/proc/loadavg', 'utf8').trim(), results }));
await broker.close();
process.exit(0);
