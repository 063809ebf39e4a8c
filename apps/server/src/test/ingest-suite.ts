import { afterAll, afterEach, beforeAll } from 'vitest';
import { factories, type TestLine } from './factories.ts';
import { connectGateway, type GatewayClient } from './gateway.ts';
import { probes } from './probes.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * One server for a file of ingest tests, with a line to put machines on: each test asks for
 * gateways of one machine each, connected over MQTT and closed after the test. Call at the top
 * of the file; `server` and `db` are there from the first test on.
 */
export const ingestSuite = () => {
  let server: TestServer | undefined;
  let db: ReturnType<typeof probes> | undefined;
  let make: ReturnType<typeof factories>;
  let line: TestLine;
  const clients: GatewayClient[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    make = factories(server.linewatch);
    db = probes(server.linewatch.database.db);
    line = await make.createLine();
  });
  afterEach(async () => {
    for (let c = clients.pop(); c; c = clients.pop()) await c.close();
  });
  afterAll(() => server?.close());

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('ingestSuite: used before its beforeAll ran');
    return value;
  };

  return {
    get server() {
      return started(server);
    },
    get db() {
      return started(db);
    },
    /** A new gateway with one machine on the suite's line, connected to the broker. */
    gatewayWithMachine: async () => {
      const gateway = await make.createGateway();
      const sn = await make.createDevice({ line, gateway });
      const client = await connectGateway(started(server).mqttUrl, gateway);
      clients.push(client);
      return { gateway, sn, client };
    },
  };
};
