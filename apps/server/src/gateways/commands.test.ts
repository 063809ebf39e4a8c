import { topicOf } from '@linewatch/contracts/mqtt';
import { describe, expect, it } from 'vitest';
import { GatewayCommands, GatewayNoReplyError } from './commands.ts';

/** A bus that records what is published, or is cut off from its broker. */
const fakeBus = (reachable = true) => {
  const published: { topic: string; payload: string }[] = [];
  return {
    published,
    publish: (topic: string, payload: string) => {
      if (reachable) published.push({ topic, payload });
      return reachable;
    },
  };
};
const silent = { debug: () => undefined };
const registered = (gatewayId: string) => gatewayId.startsWith('GW');

describe('gateway commands', () => {
  it('publishes each command on the gateway cmd topic with a fresh correlation id', async () => {
    const bus = fakeBus();
    const commands = new GatewayCommands(bus, silent, registered);
    const first = commands.send('GW1', { type: 'ping' });
    const second = commands.send('GW1', { type: 'unbind', snCode: 'SN-1' });
    const [a, b] = bus.published.map((p) => ({
      topic: p.topic,
      body: JSON.parse(p.payload) as { correlationId: string },
    }));
    expect(a?.topic).toBe(topicOf('GW1', 'cmd'));
    expect(b?.body).toMatchObject({ type: 'unbind', snCode: 'SN-1' });
    expect(a?.body.correlationId).not.toBe(b?.body.correlationId);

    const reply = (correlationId: string) =>
      Buffer.from(JSON.stringify({ correlationId, code: 200, content: '网关在线' }));
    // Replies may come in any order: each goes to its own command.
    commands.handleReply(topicOf('GW1', 'cmd/reply'), reply(b!.body.correlationId));
    commands.handleReply(topicOf('GW1', 'cmd/reply'), reply(a!.body.correlationId));
    expect((await first).correlationId).toBe(a?.body.correlationId);
    expect((await second).correlationId).toBe(b?.body.correlationId);
    expect(commands.counters).toMatchObject({ sent: 2, replied: 2, unmatchedReplies: 0 });
  });

  it('counts replies from gateways it does not know apart, as ingest does', () => {
    // Another server sharing the broker (a second deployment, a test run) hears the same topics.
    const commands = new GatewayCommands(fakeBus(), silent, registered);
    const foreign = topicOf('OTHER-1', 'cmd/reply');
    commands.handleReply(foreign, Buffer.from('{"correlationId":"x","code":200,"content":""}'));
    commands.handleReply(foreign, Buffer.from('not json'));
    commands.handleReply(topicOf('GW1', 'cmd/reply'), Buffer.from('not json'));
    expect(commands.counters).toMatchObject({
      unknownGatewayReplies: 2,
      unmatchedReplies: 0,
      malformedReplies: 1,
    });
  });

  it('fails at once when the broker is out of reach, and on close', async () => {
    const cutOff = new GatewayCommands(fakeBus(false), silent, registered);
    await expect(cutOff.send('GW1', { type: 'ping' })).rejects.toMatchObject({
      reason: 'broker-unreachable',
    });

    const commands = new GatewayCommands(fakeBus(), silent, registered);
    const pending = commands.send('GW1', { type: 'ping' });
    commands.close();
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayNoReplyError);
    expect(error).toMatchObject({ reason: 'closing' });
  });
});
