import type { AckMessage } from '@linewatch/contracts/mqtt';
import { describe, expect, it } from 'vitest';
import { reading, type GatewayClient } from '../test/gateway.ts';
import { ingestCounters } from '../test/probes.ts';
import { ingestSuite } from '../test/ingest-suite.ts';
import { waitFor } from '../test/wait.ts';

// What a gateway is told when the server does not apply what it sent (docs/protocol.md,
// "Rejections"): a message numbered below what the server has, and a malformed one.

const suite = ingestSuite();
const { gatewayWithMachine } = suite;

const rejectionOf = (client: GatewayClient, seq: number | null) =>
  waitFor(() => client.replies.find((r) => r.rejected && r.rejected.seq === seq), {
    what: `the rejection of seq ${seq}`,
  });

describe('a gateway that numbers from 1 again (its counter was lost)', () => {
  it('is told its message was not applied and where the server expects it to go on', async () => {
    const { gateway, sn, client } = await gatewayWithMachine();
    for (let seq = 1; seq <= 3; seq++)
      await client.telemetry(seq, [reading(sn, { produced: seq })]);
    await client.waitForAck(3);

    await client.telemetry(1, [reading(sn, { produced: 40 })]);
    const reply: AckMessage = await rejectionOf(client, 1);
    expect(reply).toMatchObject({ next: 4, rejected: { seq: 1, reason: 'stale' } });
    expect(reply.rejected?.detail).toMatch(/not applied/);
    expect((await suite.db.live(sn))?.produced).toBe(3);

    // Renumbered from `next`, as the reply says, the same reading counts.
    await client.telemetry(4, [reading(sn, { produced: 40 })]);
    await client.waitForAck(4);
    expect((await suite.db.live(sn))?.produced).toBe(40);
    expect(await suite.db.lastSeq(gateway.id)).toBe(4);
  });
});

describe('a malformed message', () => {
  it('is rejected with its seq and reason; its seq is used up, so the stream goes on', async () => {
    const { gateway, sn, client } = await gatewayWithMachine();
    await client.telemetry(1, [reading(sn, { produced: 10 })]);
    await client.waitForAck(1);
    const before = await ingestCounters(suite.server.baseUrl);

    await client.publish('telemetry', { seq: 2, readings: 'not a list' });
    const whole = await rejectionOf(client, 2);
    expect(whole.rejected).toMatchObject({ reason: 'malformed' });
    expect(whole.rejected?.items).toBeUndefined();
    expect(whole.rejected?.detail).toMatch(/readings/);

    // No hole at 2: the next message is taken at once, not held waiting for a resend of 2.
    await client.telemetry(3, [reading(sn, { produced: 20 })]);
    await client.waitForAck(3);
    expect((await suite.db.live(sn))?.produced).toBe(20);

    const after = await ingestCounters(suite.server.baseUrl);
    expect(after.malformed - before.malformed).toBe(1);
    expect(after.outOfOrder - before.outOfOrder).toBe(0);
    expect(await suite.db.lastSeq(gateway.id)).toBe(3);
  });

  it('keeps the good readings of a message with one bad reading, and names the bad one', async () => {
    const { sn, client } = await gatewayWithMachine();
    await client.telemetry(1, [reading(sn, { produced: 100 })]);
    await client.waitForAck(1);

    await client.publish('telemetry', {
      seq: 2,
      readings: [
        reading(sn, { produced: 110 }),
        { ...reading(sn, { produced: 9_999 }), status: 7 },
        reading(sn, { produced: 120 }),
      ],
    });
    const reply = await rejectionOf(client, 2);
    expect(reply.rejected).toMatchObject({ reason: 'malformed', items: [1] });
    expect(reply.rejected?.detail).toMatch(/readings\[1\]\.status/);
    await client.waitForAck(2);
    expect((await suite.db.live(sn))?.produced).toBe(120);
    expect(await suite.db.producedTotal(sn)).toBe(20);
  });

  it('is rejected without a seq when none can be read, and counted', async () => {
    const { sn, client } = await gatewayWithMachine();
    await client.telemetry(1, [reading(sn, { produced: 1 })]);
    await client.waitForAck(1);
    const before = (await ingestCounters(suite.server.baseUrl)).malformed;
    await client.publish('telemetry', Buffer.from('{"seq": 1, "readings": [ not json'));
    const reply = await rejectionOf(client, null);
    expect(reply.rejected).toMatchObject({ reason: 'malformed' });
    expect(reply.rejected?.detail).toMatch(/JSON/);
    expect((await ingestCounters(suite.server.baseUrl)).malformed).toBe(before + 1);
  });
});
