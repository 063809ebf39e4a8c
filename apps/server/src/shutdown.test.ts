import { topicOf } from '@linewatch/contracts/mqtt';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { startTestServer } from './test/test-server.ts';

describe('a graceful stop', () => {
  it('lets the gateway-presence write finish before the database closes', async () => {
    const server = await startTestServer();
    const { linewatch } = server;
    const errors = vi.spyOn(linewatch.app.log, 'error');
    const gatewayId = 'GW-SHUTDOWN';
    await sql`INSERT INTO gateways (id, name, password_hash) VALUES (${gatewayId}, 'g', 'x')`.execute(
      linewatch.database.db,
    );
    linewatch.presence.register(gatewayId);
    // The database is busy when the gateway says it is going offline (the demo gateways stop
    // just before the server does): the presence write waits for the connection.
    const busy = sql`SELECT pg_sleep(0.3)`.execute(linewatch.database.db);
    linewatch.presence.handleState(
      topicOf(gatewayId, 'state'),
      Buffer.from(JSON.stringify({ state: 'online', ts: Date.now() })),
    );
    await server.close();
    await busy.catch(() => undefined);
    expect(errors.mock.calls).toEqual([]);
  });
});
