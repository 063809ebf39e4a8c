import type { Envelope } from '@linewatch/contracts/envelope';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { sockets } from '@linewatch/contracts/telemetry-api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../test/factories.ts';
import { connectGateway, reading } from '../test/gateway.ts';
import { login } from '../test/http.ts';
import { openSocket } from '../test/socket.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';
import { METRICS_PATH } from './metrics.ts';

/** The samples of a Prometheus text exposition, keyed `name{a="x",b="y"}` (labels sorted). */
const parse = (text: string): Map<string, number> => {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, name, value]) => `${name}="${value}"`)
      .sort()
      .join(',');
    samples.set(labels ? `${match[1]}{${labels}}` : match[1]!, Number(match[3]));
  }
  return samples;
};

const value = (samples: Map<string, number>, name: string, labels: Record<string, string> = {}) => {
  const text = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  return samples.get(text ? `${name}{${text}}` : name);
};

// A web build, so that the app's history fallback would answer /metrics if it were let to.
const webDist = mkdtempSync(join(tmpdir(), 'lw-metrics-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app</title>');

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(server.baseUrl + path, { headers });

describe('GET /metrics with METRICS_TOKEN unset', () => {
  let server: TestServer;
  const scrape = async () => {
    const reply = await get(server, METRICS_PATH);
    expect(reply.status).toBe(200);
    return parse(await reply.text());
  };

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('counts what a gateway sent: accepted, a duplicate, the flushes and their lag', async () => {
    const make = factories(server.linewatch);
    const line = await make.createLine();
    const gateway = await make.createGateway();
    const sn = await make.createDevice({ line, gateway });
    const client = await connectGateway(server.mqttUrl, gateway);
    try {
      for (let seq = 1; seq <= 3; seq++)
        await client.telemetry(seq, [reading(sn, { produced: seq })]);
      await client.waitForAck(3);
      await client.telemetry(2, [reading(sn, { produced: 2 })]);
      const samples = await waitFor(
        async () => {
          const s = await scrape();
          return (
            value(s, 'linewatch_ingest_messages_dropped_total', { cause: 'duplicate' }) === 1 && s
          );
        },
        { what: 'the duplicate counted' },
      );
      const dropped = (cause: string) =>
        value(samples, 'linewatch_ingest_messages_dropped_total', { cause });
      expect(value(samples, 'linewatch_ingest_messages_accepted_total')).toBe(3);
      expect(value(samples, 'linewatch_ingest_messages_committed_total')).toBe(3);
      // A shared external broker also carries other servers' gateways: unknown to this one.
      expect(
        value(samples, 'linewatch_ingest_messages_received_total')! - dropped('unknown_gateway')!,
      ).toBe(4);
      for (const cause of ['malformed', 'lost_by_gateway', 'dead_letter'])
        expect(dropped(cause), cause).toBe(0);
      expect(value(samples, 'linewatch_ingest_messages_out_of_order_total')).toBe(0);
      expect(value(samples, 'linewatch_ingest_fenced_writes_total')).toBe(0);
      expect(
        value(samples, 'linewatch_ingest_readings_dropped_total', { cause: 'unknown_machine' }),
      ).toBe(0);
      expect(value(samples, 'linewatch_ingest_flush_duration_seconds_count')).toBeGreaterThan(0);
      expect(value(samples, 'linewatch_ingest_lag_seconds_count')).toBeGreaterThan(0);
      expect(value(samples, 'linewatch_ingest_flush_failures_total')).toBe(0);
      expect(value(samples, 'linewatch_gateways_owned')).toBe(1);
      expect(value(samples, 'linewatch_broker_connected')).toBe(1);
      expect(
        value(samples, 'linewatch_server_info', { database: server.linewatch.database.kind }),
      ).toBe(1);
      // prom-client's process metrics: event-loop lag, heap, resident memory.
      expect(value(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(value(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('counts the signed-in sockets by kind while they are open', async () => {
    const make = factories(server.linewatch);
    const line = await make.createLine();
    const sn = await make.createDevice({ line });
    const user = await make.createUser({ lines: [line] });
    const keyId = await login(server.baseUrl, user.psnCode, user.password);
    const socket = openSocket(server.wsUrl, sockets.realtime.path(sn), {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    try {
      await socket.waitForMessage(() => true);
      const open = await scrape();
      expect(value(open, 'linewatch_open_sockets', { kind: 'realtime' })).toBe(1);
      expect(value(open, 'linewatch_open_sockets', { kind: 'maintenance' })).toBe(0);
    } finally {
      socket.close();
    }
    await socket.closed;
    await waitFor(
      async () => value(await scrape(), 'linewatch_open_sockets', { kind: 'realtime' }) === 0,
      { what: 'the closed socket uncounted' },
    );
  });

  it('counts the outbox rows still to deliver, by channel', async () => {
    const { db } = server.linewatch.database;
    const user = await factories(server.linewatch).createUser();
    const notices = await db
      .insertInto('notifications')
      .values(
        ['a', 'b'].map((key) => ({
          user_id: user.id,
          kind: 'alarm',
          title: 't',
          body: 'b',
          dedupe_key: key,
        })),
      )
      .returning('id')
      .execute();
    // This server has no webhook channel configured: its worker leaves the rows alone.
    await db
      .insertInto('outbox')
      .values([
        { notification_id: notices[0]!.id, channel: 'webhook', target: 'https://example.com/' },
        {
          notification_id: notices[1]!.id,
          channel: 'webhook',
          target: 'https://example.com/',
          next_attempt_at: new Date(Date.now() + 3_600_000),
        },
      ])
      .execute();
    const samples = await scrape();
    expect(value(samples, 'linewatch_outbox_backlog', { channel: 'webhook', state: 'due' })).toBe(
      1,
    );
    expect(
      value(samples, 'linewatch_outbox_backlog', { channel: 'webhook', state: 'waiting' }),
    ).toBe(1);
  });

  it('answers loopback only, and never through a proxy', async () => {
    const { app } = server.linewatch;
    const remote = await app.inject({ url: METRICS_PATH, remoteAddress: '192.0.2.7' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json<Envelope<null>>()).toMatchObject({ success: false, code: '0403' });
    // A reverse proxy on this host makes every outside request arrive from loopback.
    for (const header of ['x-forwarded-for', 'forwarded']) {
      const proxied = await get(server, METRICS_PATH, { [header]: '203.0.113.9' });
      expect(proxied.status, header).toBe(403);
    }
    const mapped = await app.inject({ url: METRICS_PATH, remoteAddress: '::ffff:127.0.0.1' });
    expect(mapped.statusCode).toBe(200);
  });

  it('is never answered by the web app shell', async () => {
    for (const path of ['/metrics/', '/metrics/x']) {
      const reply = await get(server, path);
      expect(reply.status, path).toBe(404);
      expect(reply.headers.get('content-type'), path).toMatch(/json/);
    }
    const metrics = await get(server, METRICS_PATH);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => server?.close());

  it('asks for the bearer token, even from loopback', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const reply = await get(server, METRICS_PATH, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await reply.json()) as Envelope<null>).code).toBe('0405');
    }
  });

  it('answers the right token from anywhere, proxied or not', async () => {
    const local = await get(server, METRICS_PATH, { authorization: `Bearer ${TOKEN}` });
    expect(local.status).toBe(200);
    expect(parse(await local.text()).has('linewatch_ingest_messages_accepted_total')).toBe(true);
    const remote = await server.linewatch.app.inject({
      url: METRICS_PATH,
      remoteAddress: '192.0.2.7',
      headers: { authorization: `bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(remote.statusCode).toBe(200);
  });
});
