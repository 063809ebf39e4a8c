import {
  ackMessage,
  topicOf,
  type AckMessage,
  type Reading,
  type TopicKind,
} from '@linewatch/contracts/mqtt';
import mqtt, { type MqttClient } from 'mqtt';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestGateway } from './factories.ts';
import { REPO_ROOT } from './server-process.ts';
import { externalMqttUrl } from './test-server.ts';
import { waitFor } from './wait.ts';

// ---------------------------------------------------------------------------------------------
// MQTT, as a gateway

export interface GatewayClient {
  client: MqttClient;
  /** Every ack seq received, in order. */
  acks: number[];
  /** Every `next` received (the server asking to resend from there), in order. */
  resumes: number[];
  /** Every message on the ack topic, whole, in order. */
  replies: AckMessage[];
  /** Runs `listener` synchronously as each ack arrives. */
  onAck(listener: (seq: number) => void): void;
  waitForAck(seq: number, timeout?: number): Promise<void>;
  /** Publishes raw bytes or a JSON value on one of this gateway's topics (or any topic). */
  publish(topic: TopicKind | { topic: string }, payload: unknown): Promise<void>;
  telemetry(seq: number, readings: Reading[], extra?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** An MQTT client signed in with a gateway's credential, subscribed to its ack topic. */
export const connectGateway = async (
  mqttUrl: string,
  gateway: TestGateway,
): Promise<GatewayClient> => {
  const client = await mqtt.connectAsync(mqttUrl, {
    // The embedded broker takes a gateway only under its own id, as the agent connects.
    clientId: `gw-${gateway.id}`,
    username: gateway.id,
    password: gateway.secret,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });
  const acks: number[] = [];
  const resumes: number[] = [];
  const replies: AckMessage[] = [];
  const listeners = new Set<(seq: number) => void>();
  client.on('message', (topic, payload) => {
    if (topic !== topicOf(gateway.id, 'ack')) return;
    const reply = ackMessage.parse(JSON.parse(payload.toString('utf8')));
    const { seq, next } = reply;
    replies.push(reply);
    acks.push(seq);
    if (next !== undefined) resumes.push(next);
    for (const listener of listeners) listener(seq);
  });
  await client.subscribeAsync(topicOf(gateway.id, 'ack'), { qos: 1 });
  const publish = async (topic: TopicKind | { topic: string }, payload: unknown) => {
    const name = typeof topic === 'string' ? topicOf(gateway.id, topic) : topic.topic;
    const bytes = Buffer.isBuffer(payload)
      ? payload
      : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
    await client.publishAsync(name, bytes, { qos: 1 });
  };
  return {
    client,
    acks,
    resumes,
    replies,
    onAck: (listener) => listeners.add(listener),
    waitForAck: (seq, timeout = 20_000) =>
      waitFor(() => acks.some((a) => a >= seq), {
        timeout,
        what: `ack ${seq} for ${gateway.id}`,
      }).then(() => undefined),
    publish,
    telemetry: (seq, readings, extra = {}) => publish('telemetry', { seq, ...extra, readings }),
    close: () => client.endAsync(true),
  };
};

/** One reading of a machine, counters given as `produced` (ok = produced, no NG). */
export const reading = (
  sn: string,
  counters: { produced: number; ok?: number; ng?: number; firstPassOk?: number },
  { ts = Date.now(), status = 2 }: { ts?: number; status?: Reading['status'] } = {},
): Reading => ({
  sn,
  ts,
  status,
  counters: {
    produced: counters.produced,
    ok: counters.ok ?? counters.produced,
    ng: counters.ng ?? 0,
    firstPassOk: counters.firstPassOk ?? counters.ok ?? counters.produced,
  },
  alarms: [],
});

// ---------------------------------------------------------------------------------------------
// The gateway agent (apps/gateway) as a process, exactly as on an edge box

/** A simulated machine inside the agent, or a PLC the agent reads (its config entry as is). */
type AgentMachine =
  | { sn: string; seed?: number; ppmTarget?: number; faultRate?: number; timeScale?: number }
  | { sn: string; driver: 'modbus' | 'opcua' | 's7'; plcIp: string; [field: string]: unknown };

export interface AgentProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  bufferDir(gatewayId: string): string;
  /** The ack watermark the agent persisted (read it after the agent has stopped). */
  ackedSeq(gatewayId: string): number;
  /** SIGTERM: the agent publishes offline, persists its buffer and exits. */
  stop(): Promise<number | null>;
  kill(): Promise<void>;
  /** Kills the agent if still running and removes its files (and, on an external broker, its retained state). */
  dispose(): Promise<void>;
}

const clearRetainedState = async (mqttUrl: string, gateways: TestGateway[]) => {
  const client = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0 });
  try {
    for (const g of gateways)
      await client.publishAsync(topicOf(g.id, 'state'), '', { qos: 1, retain: true });
  } finally {
    await client.endAsync();
  }
};

const agentMain = join(REPO_ROOT, 'apps/gateway/src/main.ts');

export const runGatewayAgent = ({
  mqttUrl,
  gateways,
  pollIntervalMs = 100,
  settings = {},
  dir = mkdtempSync(join(tmpdir(), 'lw-agent-')),
}: {
  mqttUrl: string;
  gateways: (TestGateway & { machines: AgentMachine[] })[];
  pollIntervalMs?: number;
  settings?: Record<string, unknown>;
  /** The agent's folder (config, buffers, machines.json): another agent's, to restart it. */
  dir?: string;
}): AgentProcess => {
  const configFile = join(dir, 'gateway.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      brokerUrl: mqttUrl,
      pollIntervalMs,
      ackTimeoutMs: 2000,
      reconnectMinMs: 200,
      reconnectMaxMs: 1000,
      ...settings,
      gateways: gateways.map((g) => ({
        id: g.id,
        password: g.secret,
        bufferDir: join(dir, 'buffers', g.id),
        machines: g.machines.map((m) =>
          'driver' in m
            ? m
            : { driver: 'simulated', faultRate: 0, timeScale: 60, ppmTarget: 120, ...m },
        ),
      })),
    }),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', agentMain, '--config', configFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const bufferDir = (id: string) => join(dir, 'buffers', id);
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    bufferDir,
    ackedSeq: (id) =>
      (JSON.parse(readFileSync(join(bufferDir(id), 'meta.json'), 'utf8')) as { floor: number })
        .floor,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill,
    dispose: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
      // A shared broker keeps retained state (and last wills) forever: leave it as found.
      if (externalMqttUrl) await clearRetainedState(externalMqttUrl, gateways);
    },
  };
};
