import { topicOf } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { GatewayPresence, type PresenceStore } from './gateway-presence.ts';

const setup = () => {
  const writes: [string, boolean][] = [];
  const announced: string[] = [];
  const store: PresenceStore = {
    loadGatewayIds: async () => ['GW1', 'GW2'],
    setGatewayOnline: async (id: string, online: boolean) => void writes.push([id, online]),
  };
  const presence = new GatewayPresence(store, {} as FastifyBaseLogger);
  presence.onOnline((id) => announced.push(id));
  return { presence, writes, announced };
};
const state = (value: string) => Buffer.from(JSON.stringify({ state: value, ts: Date.now() }));

describe('gateway presence', () => {
  it('knows nothing after a start: offline until a gateway speaks', async () => {
    const { presence, writes } = setup();
    await presence.load();
    expect(presence.isOnline('GW1')).toBe(false);
    presence.heard(topicOf('GW1', 'telemetry'));
    presence.heard(topicOf('GW1', 'events'));
    expect(presence.isOnline('GW1')).toBe(true);
    expect(presence.isOnline('GW2')).toBe(false);
    expect(writes).toEqual([['GW1', true]]);
  });

  it('follows the state topic, asks for an ack on online, ignores what it cannot read', async () => {
    const { presence, writes, announced } = setup();
    await presence.load();
    presence.handleState(topicOf('GW2', 'state'), state('online'));
    expect(presence.isOnline('GW2')).toBe(true);
    expect(announced).toEqual(['GW2']);
    presence.handleState(topicOf('GW2', 'state'), Buffer.from('not json'));
    presence.handleState(topicOf('GW2', 'state'), state('sleeping'));
    expect(presence.isOnline('GW2')).toBe(true);
    presence.handleState(topicOf('GW2', 'state'), state('offline'));
    expect(presence.isOnline('GW2')).toBe(false);
    // A gateway this server does not know stays unknown.
    presence.handleState(topicOf('GW9', 'state'), state('online'));
    presence.heard(topicOf('GW9', 'telemetry'));
    expect(presence.isOnline('GW9')).toBe(false);
    expect(writes).toEqual([
      ['GW2', true],
      ['GW2', false],
    ]);
  });
});
