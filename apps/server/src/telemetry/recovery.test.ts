import { topicOf } from '@linewatch/contracts/mqtt';
import mqtt from 'mqtt';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../foundation/config/config.ts';
import { openDatabase, type OpenDatabase } from '../foundation/db/database.ts';
import { factories, type TestGateway } from '../test/factories.ts';
import { runGatewayAgent, type AgentProcess } from '../test/gateway.ts';
import {
  spawnServer,
  SPAWNED_SERVER_TEST_TIMEOUT_MS,
  type ServerProcess,
} from '../test/server-process.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  externalMqttUrl,
  TEST_SECRET,
  uniqueSchema,
} from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

/*
 * Recovery after a server restart with PostgreSQL and an external broker (issue 22, item 2): the
 * broker stays up, so the gateway never reconnects; what it published while the server was down
 * reached no one. The restarted server answers the gateway's retained online state (and any gap)
 * with where to resend from, and the gateway resends at once. The agent's own resend timer is set
 * to ten minutes here: only the server's answer can bring the flow back within the test.
 */
describe.skipIf(!externalDatabaseUrl || !externalMqttUrl)(
  'a server restart behind an external broker',
  () => {
    const schema = uniqueSchema();
    const dataDir = mkdtempSync(join(tmpdir(), 'lw-recovery-'));
    const env = {
      HOST: '127.0.0.1',
      PORT: '0',
      DEMO: '0',
      SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
      DATABASE_URL: externalDatabaseUrl ?? '',
      DATABASE_SCHEMA: schema,
      MQTT_URL: externalMqttUrl ?? '',
      DATA_DIR: dataDir,
      WEB_DIST: join(dataDir, 'no-web-dist'),
    };
    let gateway: TestGateway;
    let sns: string[];
    let database: OpenDatabase;
    const servers: ServerProcess[] = [];
    let agent: AgentProcess | undefined;

    beforeAll(async () => {
      database = await openDatabase(loadConfig(env));
      const make = factories(database.db);
      const line = await make.createLine();
      gateway = await make.createGateway();
      sns = await make.createDevices(2, { line, gateway, ppmTarget: 120 });
    }, 60_000);
    afterAll(async () => {
      await agent?.dispose();
      await Promise.all(servers.map((s) => s.kill()));
      await database?.close();
      if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
      rmSync(dataDir, { recursive: true, force: true });
    });

    const committed = async () =>
      (
        await database.db
          .selectFrom('gateways')
          .select('last_seq')
          .where('id', '=', gateway.id)
          .executeTakeFirstOrThrow()
      ).last_seq;

    it(
      'the gateway resends what was lost as soon as the server answers, not at its next timer',
      async () => {
        servers.push(spawnServer(env));
        await servers[0]!.listening;
        agent = runGatewayAgent({
          mqttUrl: externalMqttUrl!,
          gateways: [{ ...gateway, machines: sns.map((sn) => ({ sn })) }],
          settings: { ackTimeoutMs: 600_000 },
        });
        await waitFor(async () => (await committed()) >= 10, { what: 'ten messages committed' });

        // What the gateway publishes while no server listens, as the broker sees it.
        const watcher = await mqtt.connectAsync(externalMqttUrl!, { reconnectPeriod: 0 });
        let lastPublished = 0;
        watcher.on('message', (_topic, payload) => {
          lastPublished = Math.max(
            lastPublished,
            (JSON.parse(payload.toString()) as { seq: number }).seq,
          );
        });
        await watcher.subscribeAsync(topicOf(gateway.id, 'telemetry'), { qos: 1 });
        try {
          await servers[0]!.kill('SIGKILL');
          const down = await committed();
          await waitFor(() => lastPublished >= down + 20, {
            what: 'twenty messages published while the server is down',
          });
          servers.push(spawnServer(env));
          await servers[1]!.listening;
          const target = lastPublished;
          await waitFor(async () => (await committed()) >= target, {
            what: `everything published while down committed (seq ${target})`,
            timeout: 60_000,
          });
          expect(agent.stdout()).toMatch(/server asked to resend from seq \d+/);
        } finally {
          await watcher.endAsync();
        }
      },
      SPAWNED_SERVER_TEST_TIMEOUT_MS,
    );
  },
);
