import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway, reading, type GatewayClient } from '../test/gateway.ts';
import { factories } from '../test/factories.ts';
import { ingestCounters, probes } from '../test/probes.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A reading every 5 s of the gateway's clock: 12 parts a minute, one part each. */
const EVERY_MS = 5000;

/**
 * The server's half of a one-hour outage (the agent's half, its buffer replaying exactly what it
 * read, is apps/gateway/src/offline-hour.test.ts): a gateway whose clock is simulated (the readings'
 * timestamps, not the wall clock) comes back after an hour with its buffer, replays it in order,
 * loses the connection in the middle and replays again from its oldest unacknowledged message, as
 * the agent does. The server must store the hour with no gap and count nothing twice.
 */
describe('a gateway back from an hour offline', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('has its hour replayed into the history in order, with no gap and no duplicate', async () => {
    const make = factories(server.linewatch);
    const db = probes(server.linewatch.database.db);
    const line = await make.createLine();
    const gateway = await make.createGateway();
    const sn = await make.createDevice({ line, gateway });
    // The simulated clock: two hours ago, on a minute; the outage is its second hour.
    const t0 = Math.floor((Date.now() - 2 * HOUR) / MINUTE) * MINUTE;
    const clock = (seq: number) => t0 + (seq - 1) * EVERY_MS;
    const message = (seq: number) => [reading(sn, { produced: 1000 + seq }, { ts: clock(seq) })];
    const online = HOUR / EVERY_MS; // seq 1..720: the first hour, live
    const last = (2 * HOUR) / EVERY_MS; // seq 721..1440: buffered while offline
    const before = await ingestCounters(server.baseUrl);

    const send = async (client: GatewayClient, from: number, to: number) => {
      for (let seq = from; seq <= to; seq++) await client.telemetry(seq, message(seq));
    };
    const first = await connectGateway(server.mqttUrl, gateway);
    await send(first, 1, online);
    await first.waitForAck(online);
    await first.close();

    // Back: the replay is cut off two thirds of the way …
    const second = await connectGateway(server.mqttUrl, gateway);
    await send(second, online + 1, online + 480);
    const acked = () => Math.max(online, ...second.acks);
    await second.waitForAck(online + 480);
    await second.close();
    // … and starts again from the oldest message not acknowledged before the cut, overlapping
    // what the server already has (an ack lost with the connection).
    const third = await connectGateway(server.mqttUrl, gateway);
    await send(third, acked() - 100, last);
    await third.waitForAck(last);
    await third.close();

    const after = await ingestCounters(server.baseUrl);
    expect(after.accepted - before.accepted).toBe(last);
    expect(after.duplicates - before.duplicates).toBe(101);
    expect(after.outOfOrder - before.outOfOrder).toBe(0);
    expect(await db.lastSeq(gateway.id)).toBe(last);
    // Every part counted once: the counter rose by last - 1 from the first reading.
    expect(await db.producedTotal(sn)).toBe(last - 1);
    expect(await db.producedByMinutes(sn)).toBe(last - 1);
    // No gap: each minute of the offline hour holds its 12 parts.
    const minutes = await server.linewatch.database.db
      .selectFrom('rollup_minute')
      .select(['minute', sql<number>`produced::int`.as('produced')])
      .where('sn_code', '=', sn)
      .where('minute', '>=', new Date(t0 + HOUR))
      .where('minute', '<', new Date(t0 + 2 * HOUR))
      .orderBy('minute')
      .execute();
    expect(minutes).toHaveLength(60);
    expect(minutes.every((m) => m.produced === MINUTE / EVERY_MS)).toBe(true);
  });
});
