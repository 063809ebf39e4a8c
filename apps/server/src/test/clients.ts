import { identityApi } from '@linewatch/contracts/identity-api';
import type { Envelope } from '@linewatch/contracts/envelope';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { ackMessage, topicOf, type Reading, type TopicKind } from '@linewatch/contracts/mqtt';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import mqtt, { type MqttClient } from 'mqtt';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { TestGateway } from './factories.ts';
import { externalMqttUrl } from './test-server.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Polls until `probe` returns something other than undefined / null / false, and returns it. */
export const waitFor = async <T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeout = 20_000, interval = 50, what = 'condition' } = {},
): Promise<T> => {
  const deadline = Date.now() + timeout;
  let lastError: Error | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}` +
          (lastError ? ` (last error: ${lastError.message})` : ''),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
};

// ---------------------------------------------------------------------------------------------
// REST

interface ApiReply<T = unknown> {
  status: number;
  body: Envelope<T>;
  text: string;
  headers: Headers;
}

const request = async <T>(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiReply<T>> => {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left null: the test looks at `text`
  }
  return { status: response.status, body: parsed as Envelope<T>, text, headers: response.headers };
};

/** POSTs the login form as the web app does, the password encrypted by the spec's scheme. */
export const loginRequest = (
  baseUrl: string,
  body: { psnCode: string; passWord: string; openId?: string },
  headers: Record<string, string> = {},
) =>
  request<{ keyId: string }>(baseUrl, 'POST', identityApi.wechatBindUser.path, {
    body,
    headers,
  });

/** Signs in and returns the keyId (fails the test if the login is refused). */
export const login = async (baseUrl: string, psnCode: string, password: string) => {
  const reply = await loginRequest(baseUrl, { psnCode, passWord: encryptPassword(password) });
  if (reply.status !== 200 || !reply.body.success) {
    throw new Error(`login of ${psnCode} failed: ${reply.status} ${reply.text}`);
  }
  return reply.body.data.keyId;
};

const queryString = (query: Record<string, string | number | undefined> = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * Calls the API as a signed-in phone: keyId in its header, or (`via: 'cookie'`) only in the
 * cookie as a browser's cross-site request would carry it.
 */
export const api = (baseUrl: string, keyId?: string, via: 'header' | 'cookie' = 'header') => {
  const auth: Record<string, string> = !keyId
    ? {}
    : via === 'header'
      ? { [KEY_ID_HEADER]: keyId }
      : { cookie: `${KEY_ID_COOKIE}=${keyId}` };
  return {
    get: <T = unknown>(path: string, query?: Record<string, string | number | undefined>) =>
      request<T>(baseUrl, 'GET', path + queryString(query), { headers: auth }),
    post: <T = unknown>(path: string, body?: unknown) =>
      request<T>(baseUrl, 'POST', path, { headers: auth, body: body ?? {} }),
  };
};

// ---------------------------------------------------------------------------------------------
// WebSocket

export interface SocketClient {
  messages: unknown[];
  /** Resolves with the first message (already received or still to come) matching `predicate`. */
  waitForMessage<T = unknown>(predicate: (message: T) => boolean, timeout?: number): Promise<T>;
  /** The close code and reason once the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  /** The HTTP status when the server refused the handshake. */
  refused: Promise<number | null>;
  opened: Promise<boolean>;
  /** The subprotocol the server chose ('' for none). */
  protocol(): string;
  send(message: unknown): void;
  close(): void;
}

export const openSocket = (
  wsUrl: string,
  path: string,
  {
    origin,
    headers = {},
    protocols = [],
  }: { origin?: string; headers?: Record<string, string>; protocols?: string[] } = {},
): SocketClient => {
  const socket = new WebSocket(wsUrl + path, protocols, {
    headers,
    ...(origin ? { origin } : {}),
  });
  const messages: unknown[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')));
    for (const wake of waiters) wake();
  });
  let refusedStatus: number | null = null;
  const refused = new Promise<number | null>((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      refusedStatus = response.statusCode ?? 0;
      resolve(refusedStatus);
      socket.terminate();
    });
    socket.on('open', () => resolve(null));
  });
  socket.on('error', () => {
    // a refused handshake surfaces through `refused`, a dropped one through `closed`
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  return {
    messages,
    waitForMessage: <T>(predicate: (message: T) => boolean, timeout = 20_000) =>
      new Promise<T>((resolve, reject) => {
        let index = 0;
        const check = () => {
          for (; index < messages.length; index++) {
            if (predicate(messages[index] as T)) {
              cleanup();
              resolve(messages[index] as T);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching socket message within ${timeout} ms`));
        }, timeout);
        const onClose = () => {
          check();
          cleanup();
          reject(new Error('socket closed before a matching message'));
        };
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
          socket.off('close', onClose);
        };
        waiters.add(check);
        socket.on('close', onClose);
        check();
      }),
    closed,
    refused,
    opened: refused.then((status) => status === null),
    protocol: () => socket.protocol,
    send: (message) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
};

// ---------------------------------------------------------------------------------------------
// MQTT, as a gateway

export interface GatewayClient {
  client: MqttClient;
  /** Every ack seq received, in order. */
  acks: number[];
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
  const listeners = new Set<(seq: number) => void>();
  client.on('message', (topic, payload) => {
    if (topic !== topicOf(gateway.id, 'ack')) return;
    const { seq } = ackMessage.parse(JSON.parse(payload.toString('utf8')));
    acks.push(seq);
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

interface AgentMachine {
  sn: string;
  seed?: number;
  ppmTarget?: number;
  faultRate?: number;
  timeScale?: number;
}

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
}: {
  mqttUrl: string;
  gateways: (TestGateway & { machines: AgentMachine[] })[];
  pollIntervalMs?: number;
  settings?: Record<string, unknown>;
}): AgentProcess => {
  const dir = mkdtempSync(join(tmpdir(), 'lw-agent-'));
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
        machines: g.machines.map((m) => ({
          driver: 'simulated',
          faultRate: 0,
          timeScale: 60,
          ppmTarget: 120,
          ...m,
        })),
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
