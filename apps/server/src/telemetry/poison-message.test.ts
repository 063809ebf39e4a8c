import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { reading } from '../test/gateway.ts';
import { ingestCounters } from '../test/probes.ts';
import { ingestSuite } from '../test/ingest-suite.ts';

const suite = ingestSuite();
const { gatewayWithMachine } = suite;

const operation = (sn: string, comment: string) => ({
  type: 'operation',
  sn,
  ts: Date.now(),
  comment,
  setValue: '1',
  user: 'op',
});

describe('a message the database refuses', () => {
  it('is dead-lettered and acknowledged; every gateway keeps flowing', async () => {
    const store = suite.server.linewatch.database.db;
    // The contracts now refuse what PostgreSQL refused (a NUL): this refuses what they accept.
    await sql`ALTER TABLE operation_logs ADD CONSTRAINT poison_for_test CHECK (comment <> 'poison')`.execute(
      store,
    );
    const a = await gatewayWithMachine();
    const b = await gatewayWithMachine();
    const before = await ingestCounters(suite.server.baseUrl);

    await a.client.telemetry(1, [reading(a.sn, { produced: 100 })]);
    await b.client.telemetry(1, [reading(b.sn, { produced: 1_000 })]);
    await a.client.publish('events', { seq: 2, events: [operation(a.sn, 'poison')] });
    await b.client.telemetry(2, [reading(b.sn, { produced: 1_010 })]);
    await a.client.telemetry(3, [reading(a.sn, { produced: 130 })]);
    await b.client.telemetry(3, [reading(b.sn, { produced: 1_020 })]);
    // Before: the shared flush failed and was retried forever; neither gateway got an ack.
    await b.client.waitForAck(3);
    await a.client.waitForAck(3);

    expect(await suite.db.producedTotal(a.sn)).toBe(30);
    expect(await suite.db.producedTotal(b.sn)).toBe(20);
    expect(await suite.db.lastSeq(a.gateway.id)).toBe(3);
    const letters = await store
      .selectFrom('dead_letters')
      .selectAll()
      .where('gateway_id', '=', a.gateway.id)
      .execute();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ seq: 2, topic: `lw/v1/gw/${a.gateway.id}/events` });
    expect(JSON.parse(Buffer.from(letters[0]!.payload).toString('utf8'))).toMatchObject({
      seq: 2,
      events: [{ comment: 'poison' }],
    });
    expect(letters[0]!.error).toMatch(/poison_for_test/);
    const after = await ingestCounters(suite.server.baseUrl);
    expect(after.deadLetters - before.deadLetters).toBe(1);

    // A's later messages are written and acknowledged as usual.
    await a.client.publish('events', { seq: 4, events: [operation(a.sn, 'fine')] });
    await a.client.waitForAck(4);
    const comments = await store
      .selectFrom('operation_logs')
      .select('comment')
      .where('sn_code', '=', a.sn)
      .execute();
    expect(comments.map((c) => c.comment)).toEqual(['fine']);
    await sql`ALTER TABLE operation_logs DROP CONSTRAINT poison_for_test`.execute(store);
  });

  // Both stopped all ingest: a NUL in an alarm code, and a minute delta above 2^31 - 1 (a drop
  // on a machine counting above 2^31) into an integer column.
  it('no longer comes from a NUL in an alarm code or a huge counter delta', async () => {
    const a = await gatewayWithMachine();
    const b = await gatewayWithMachine();
    const before = await ingestCounters(suite.server.baseUrl);

    await a.client.telemetry(1, [reading(a.sn, { produced: 3_000_000_000 })]);
    await a.client.telemetry(2, [
      {
        ...reading(a.sn, { produced: 3_000_000_100 }),
        alarms: [{ code: 'E\u00001', active: true }],
      },
    ]);
    await a.client.telemetry(2, [reading(a.sn, { produced: 0 })]);
    await a.client.telemetry(3, [reading(a.sn, { produced: 2_999_999_999 })]);
    await b.client.telemetry(1, [reading(b.sn, { produced: 5 })]);
    await b.client.telemetry(2, [reading(b.sn, { produced: 9 })]);
    await a.client.waitForAck(3);
    await b.client.waitForAck(2);

    const after = await ingestCounters(suite.server.baseUrl);
    expect(after.malformed - before.malformed).toBe(1);
    expect(after.deadLetters).toBe(before.deadLetters);
    expect(await suite.db.producedTotal(b.sn)).toBe(4);
    expect((await suite.db.live(a.sn))?.produced).toBe(2_999_999_999);
  });
});
