import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { Reading } from '@linewatch/contracts/mqtt';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { sockets, telemetryApi, type HealthReply } from '@linewatch/contracts/telemetry-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../foundation/config/config.ts';
import { openDatabase } from '../foundation/db/database.ts';
import { factories, type TestGateway } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import {
  spawnServer,
  SPAWNED_SERVER_TEST_TIMEOUT_MS,
  type ServerProcess,
} from '../test/server-process.ts';
import { openSocket, type SocketClient } from '../test/socket.ts';
import { runScriptedGateway, type ScriptedMessage } from '../test/scripted-gateway.ts';
import { storedRows } from '../test/stored-rows.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  externalMqttUrl,
  startTestServer,
  uniqueSchema,
  TEST_SECRET,
  type TestServer,
} from '../test/test-server.ts';
import { MINUTE, truthRows, type Step } from '../test/truth.ts';
import { waitFor } from '../test/wait.ts';

/*
 * Scale-out (docs/architecture.md, "Scale-out"): N server instances on one PostgreSQL and one
 * broker. Every instance hears every gateway message (live push), one writes it. Two instances
 * share only PostgreSQL and an external broker: this runs in CI's PostgreSQL + Mosquitto pass.
 */

const PPM_TARGET = 60;

/** A machine's morning: running, a fault with an alarm, waiting upstream, running again. */
const scriptOf = (start: number, count: number, everyMs: number): Step[] => {
  const counters = { produced: 1_000, ok: 990, ng: 10, firstPassOk: 980 };
  return Array.from({ length: count }, (_, i): Step => {
    const phase = Math.floor((i / count) * 4);
    const status = phase === 1 ? 3 : phase === 2 ? 1 : 2;
    if (i > 0 && status === 2) {
      counters.produced += 3;
      counters.ok += 3;
      counters.firstPassOk += 2;
    }
    return {
      ts: start + i * everyMs,
      status,
      ...(status === 1 ? { idleReason: 'upstream' as const } : {}),
      counters: { ...counters },
      alarms: status === 3 ? ['E205'] : [],
    };
  });
};

const readingOf = (sn: string, s: Step): Reading => ({
  sn,
  ts: s.ts,
  status: s.status,
  ...(s.idleReason ? { idleReason: s.idleReason } : {}),
  counters: s.counters,
  alarms: s.alarms.map((code) => ({ code, active: true })),
});

/** One reading a message, with an operation line every 25 readings on the events topic. */
const messagesOf = (sn: string, steps: readonly Step[], operations: Operation[]) => {
  const out: ScriptedMessage[] = [];
  steps.forEach((s, i) => {
    out.push({ kind: 'telemetry', body: { readings: [readingOf(sn, s)] } });
    if (i % 25 === 24) {
      const operation = { ts: s.ts, comment: '调整', setValue: `节拍 ${i}`, user: '张三' };
      operations.push(operation);
      out.push({ kind: 'events', body: { events: [{ type: 'operation', sn, ...operation }] } });
    }
  });
  return out;
};

interface Operation {
  ts: number;
  comment: string;
  setValue: string;
  user: string;
}

describe.skipIf(!externalDatabaseUrl || !externalMqttUrl)(
  'two instances on one PostgreSQL and one broker',
  () => {
    const schema = uniqueSchema();
    let a: TestServer;
    let b: TestServer;
    let gateway: TestGateway;
    let sn: string;

    beforeAll(async () => {
      const env = { DATABASE_SCHEMA: schema, TIMEZONE: 'Asia/Shanghai' };
      a = await startTestServer(env, {
        seed: async (db) => {
          const make = factories(db);
          const line = await make.createLine();
          gateway = await make.createGateway();
          sn = await make.createDevice({ line, gateway, ppmTarget: PPM_TARGET });
        },
      });
      b = await startTestServer(env);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
    });

    it('every reading is stored once, and both instances show what the database holds', async () => {
      const steps = scriptOf(Date.now() - 10 * MINUTE, 120, 5_000);
      const operations: Operation[] = [];
      const script = messagesOf(sn, steps, operations);
      const gw = await runScriptedGateway(a.mqttUrl, gateway, script);
      try {
        await gw.done();
      } finally {
        await gw.close();
      }
      const truth = truthRows(steps, PPM_TARGET, operations);
      expect(await storedRows(a.linewatch.database.db, sn)).toEqual(truth);
      // Each instance's live figures of today are the database's.
      const today = truth.days.at(-1)!;
      for (const server of [a, b])
        await waitFor(() => server.linewatch.live.todayOf(sn).produced === today.produced, {
          what: `today's produced on ${server.baseUrl}`,
        });
    });
  },
);

describe.skipIf(!externalDatabaseUrl || !externalMqttUrl)(
  'the instance that owns the gateways is killed mid-stream',
  () => {
    const schema = uniqueSchema();
    const dataDir = mkdtempSync(join(tmpdir(), 'lw-scale-out-'));
    const env = {
      HOST: '127.0.0.1',
      PORT: '0',
      DEMO: '0',
      SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
      TIMEZONE: 'Asia/Shanghai',
      DATABASE_URL: externalDatabaseUrl ?? '',
      DATABASE_SCHEMA: schema,
      MQTT_URL: externalMqttUrl ?? '',
      DATA_DIR: dataDir,
      WEB_DIST: join(dataDir, 'no-web-dist'),
    };
    const machines: { gateway: TestGateway; sn: string }[] = [];
    let user: { psnCode: string; password: string };
    const servers: ServerProcess[] = [];
    const sockets_: SocketClient[] = [];

    beforeAll(async () => {
      const database = await openDatabase(loadConfig(env));
      try {
        const make = factories(database.db);
        const line = await make.createLine();
        for (let i = 0; i < 4; i++) {
          const gateway = await make.createGateway();
          machines.push({
            gateway,
            sn: await make.createDevice({ line, gateway, ppmTarget: PPM_TARGET }),
          });
        }
        user = await make.createUser({ lines: [line] });
      } finally {
        await database.close();
      }
    }, 60_000);
    afterAll(async () => {
      for (const socket of sockets_) socket.close();
      await Promise.all(servers.map((s) => s.kill()));
      if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    const owned = async (port: number) =>
      (await api(`http://127.0.0.1:${port}`).get<HealthReply>(telemetryApi.health.path)).body.data
        .gatewaysOwned;

    it(
      'stores every figure once, loses nothing acknowledged, and phones on the other instance see it live',
      async () => {
        servers.push(spawnServer(env), spawnServer(env));
        const [portA, portB] = await Promise.all(servers.map((s) => s.listening));
        // The gateways are shared out between the two before the stream starts.
        await waitFor(async () => (await owned(portA!)) === 2 && (await owned(portB!)) === 2, {
          what: 'two gateways owned by each instance',
          timeout: 30_000,
        });
        const { sn } = machines[0]!;
        const phone = (port: number, keyId: string) => {
          const socket = openSocket(`ws://127.0.0.1:${port}`, sockets.realtime.path(sn), {
            headers: { [KEY_ID_HEADER]: keyId },
          });
          sockets_.push(socket);
          return socket;
        };
        const phoneA = phone(
          portA!,
          await login(`http://127.0.0.1:${portA}`, user.psnCode, user.password),
        );
        const phoneB = phone(
          portB!,
          await login(`http://127.0.0.1:${portB}`, user.psnCode, user.password),
        );

        const count = 150;
        const scripts = machines.map(({ sn: machine }) => {
          const steps = scriptOf(Date.now() - 6 * MINUTE, count, 2_000);
          const operations: Operation[] = [];
          return { machine, steps, operations, messages: messagesOf(machine, steps, operations) };
        });
        const gateways = await Promise.all(
          machines.map(({ gateway }, i) =>
            runScriptedGateway(externalMqttUrl!, gateway, scripts[i]!.messages, {
              intervalMs: 40,
              ackTimeoutMs: 5_000,
            }),
          ),
        );
        try {
          // Mid-stream: a third of every gateway's script acknowledged, then A dies at once.
          await waitFor(() => gateways.every((g) => g.acked > count / 3), {
            what: 'a third of each script acknowledged',
          });
          const produced = (p: RealtimePayload) =>
            p.productData.find((d) => d.key === 'produced')!.value as number;
          const seenByA = phoneA.messages.length;
          expect(seenByA).toBeGreaterThan(0);
          const beforeKill = phoneB.messages.length;
          await servers[0]!.kill('SIGKILL');
          await Promise.all(gateways.map((g) => g.done(SPAWNED_SERVER_TEST_TIMEOUT_MS / 2)));
          expect(await owned(portB!)).toBe(4);

          const truth = scripts.map((s) => truthRows(s.steps, PPM_TARGET, s.operations));
          const database = await openDatabase(loadConfig(env));
          try {
            for (const [i, s] of scripts.entries())
              expect(await storedRows(database.db, s.machine), s.machine).toEqual(truth[i]);
          } finally {
            await database.close();
          }
          // The phone on B got live figures throughout, and ends on today's true total.
          const today = truth[0]!.days.at(-1)!;
          await phoneB.waitForMessage<RealtimePayload>(
            (p) => p.SN === sn && produced(p) === today.produced,
          );
          expect(phoneB.messages.length).toBeGreaterThan(beforeKill);
        } finally {
          await Promise.all(gateways.map((g) => g.close()));
        }
      },
      SPAWNED_SERVER_TEST_TIMEOUT_MS,
    );
  },
);
