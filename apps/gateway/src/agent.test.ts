import { topicOf } from '@linewatch/contracts/mqtt';
import { modbusProfiles } from '@linewatch/contracts/plc-profiles';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from './agent.ts';
import { OfflineBuffer } from './buffer/offline-buffer.ts';
import { parseConfig } from './config.ts';
import { startSimulatedPlc } from './plc-sim/simulated-plc.ts';
import {
  FakeIngest,
  onCleanup,
  runCleanups,
  startBroker,
  subscriber,
  tempDir,
  waitFor,
} from './testing.ts';

let gatewayCount = 0;
const nextId = () => `LWGWTEST${String(++gatewayCount).padStart(4, '0')}`;

/** Starts one agent with short timings; `over` overrides process-wide settings. */
async function agentOn(
  url: string,
  id: string,
  over: Record<string, unknown> = {},
  bufferDir = tempDir(),
) {
  const config = parseConfig({
    brokerUrl: url,
    pollIntervalMs: 50,
    heartbeatMs: 200,
    ackTimeoutMs: 5000,
    reconnectMinMs: 50,
    reconnectMaxMs: 300,
    keepaliveSec: 5,
    gateways: [
      {
        id,
        password: 'pw',
        bufferDir,
        machines: [
          { driver: 'simulated', sn: 'SN-T-001', seed: 1, timeScale: 3000 },
          { driver: 'simulated', sn: 'SN-T-002', seed: 2 },
        ],
      },
    ],
    ...over,
  });
  const agent = await startGateway(config.gateways[0]!, config);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await agent.stop();
  };
  onCleanup(stop);
  return { agent, bufferDir, stop };
}

const isConsecutive = (seqs: number[]) => seqs.every((s, i) => i === 0 || s === seqs[i - 1]! + 1);

describe('gateway agent against a real broker', () => {
  afterEach(runCleanups);

  it('goes online (retained) and numbers telemetry and events 1, 2, 3… on one counter', async () => {
    const broker = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, true);
    ingest.attach(broker.broker);
    const { agent } = await agentOn(broker.url, id);

    await waitFor(
      () => ingest.accepted.length >= 8 && ingest.accepted.some((r) => r.kind === 'events'),
      'telemetry and an operation event',
    );
    expect(ingest.arrivedSeqs().slice(0, 3)).toEqual([1, 2, 3]);
    expect(ingest.refusedPastGap).toBe(0);
    expect(ingest.invalid).toBe(0);
    const first = ingest.accepted[0]!;
    expect(first.kind === 'telemetry' && first.message.readings.map((r) => r.sn).sort()).toEqual([
      'SN-T-001',
      'SN-T-002',
    ]);
    const event = ingest.accepted.find((r) => r.kind === 'events')!;
    expect(event.kind === 'events' && event.message.events[0]).toMatchObject({
      type: 'operation',
      sn: 'SN-T-001',
      comment: expect.stringMatching(/^修改/) as unknown,
    });

    const watcher = await subscriber(broker.url, [topicOf(id, 'state')]);
    const state = await waitFor(() => watcher.messages[0], 'retained state');
    expect(state).toMatchObject({
      retain: true,
      body: { state: 'online', machines: ['SN-T-001', 'SN-T-002'] },
    });
    await waitFor(() => agent.stats().unacked === 0 || null, 'acks to drain the buffer');
  });

  it('goes on with its other machines when a PLC stops answering: the gateway stays online', async () => {
    const plcOf = async (sn: string) => {
      const plc = await startSimulatedPlc({
        host: '127.0.0.1',
        port: 0,
        profile: modbusProfiles.FX5U!,
        machine: { sn, ppmTarget: 600, faultRate: 0, resetRate: 0, timeScale: 1 },
      });
      onCleanup(() => plc.close());
      return plc;
    };
    const [dying, healthy] = await Promise.all([plcOf('SN-PLC-DIES'), plcOf('SN-PLC-LIVES')]);
    const broker = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, true);
    ingest.attach(broker.broker);
    const modbus = (sn: string, port: number) => ({
      driver: 'modbus',
      sn,
      plcIp: '127.0.0.1',
      port,
      plcModel: 'FX5U',
    });
    const { agent } = await agentOn(broker.url, id, {
      modbusTimeoutMs: 200,
      gateways: [
        {
          id,
          password: 'pw',
          bufferDir: tempDir(),
          machines: [modbus('SN-PLC-DIES', dying.port), modbus('SN-PLC-LIVES', healthy.port)],
        },
      ],
    });
    const readSns = () =>
      ingest.accepted.flatMap((r) => (r.kind === 'telemetry' ? r.message.readings : []));
    await waitFor(
      () => new Set(readSns().map((r) => r.sn)).size === 2 || null,
      'readings of both machines',
    );
    const watcher = await subscriber(broker.url, [topicOf(id, 'state')]);

    await dying.close();
    const cut = readSns().length;
    await waitFor(
      () =>
        readSns()
          .slice(cut)
          .filter((r) => r.sn === 'SN-PLC-LIVES').length >= 5 || null,
      'five more readings of the machine whose PLC answers',
    );
    // At most the poll under way when the PLC went away still read it; then it is silent (the
    // server marks a silent machine offline), while the gateway stays connected and online.
    const afterCut = readSns().slice(cut);
    expect(afterCut.filter((r) => r.sn === 'SN-PLC-DIES').length).toBeLessThanOrEqual(1);
    expect(agent.stats().connected).toBe(true);
    expect(watcher.messages.map((m) => (m.body as { state: string }).state)).not.toContain(
      'offline',
    );
  });

  it('sends one reading per message when readingsPerMessage is 1', async () => {
    const broker = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, true);
    ingest.attach(broker.broker);
    await agentOn(broker.url, id, { readingsPerMessage: 1 });
    await waitFor(() => ingest.accepted.length >= 6, 'six messages');
    const sizes = ingest.accepted.map((r) =>
      r.kind === 'telemetry' ? r.message.readings.length : 1,
    );
    expect(new Set(sizes)).toEqual(new Set([1]));
  });

  it('answers a ping on cmd/reply with 200 and the same correlation id, an unknown command with 501', async () => {
    const broker = await startBroker();
    const id = nextId();
    const watcher = await subscriber(broker.url, [topicOf(id, 'state'), topicOf(id, 'cmd/reply')]);
    await agentOn(broker.url, id);
    await waitFor(
      () => watcher.messages.some((m) => (m.body as { state?: string }).state === 'online'),
      'online state',
    );
    const command = (body: object) =>
      broker.broker.publish(
        {
          cmd: 'publish',
          topic: topicOf(id, 'cmd'),
          payload: JSON.stringify(body),
          qos: 1,
          retain: false,
          dup: false,
        },
        () => {},
      );
    const replyTo = (correlationId: string) =>
      waitFor(
        () =>
          watcher.messages.find(
            (m) => (m.body as { correlationId?: string }).correlationId === correlationId,
          ),
        `the reply to ${correlationId}`,
      );

    command({ type: 'ping', correlationId: 'ping-000000001' });
    expect((await replyTo('ping-000000001')).body).toEqual({
      correlationId: 'ping-000000001',
      code: 200,
      content: '网关在线',
    });
    command({ type: 'reboot', correlationId: 'reboot-0000001' });
    expect((await replyTo('reboot-0000001')).body).toMatchObject({
      code: 501,
      content: '网关暂不支持此命令',
    });
  });

  it('leaves an offline last will when its socket dies, then comes back online', async () => {
    const broker = await startBroker();
    const id = nextId();
    const watcher = await subscriber(broker.url, [topicOf(id, 'state')]);
    await agentOn(broker.url, id);
    const states = () => watcher.messages.map((m) => (m.body as { state: string }).state);
    await waitFor(() => states().includes('online'), 'online state');

    broker.dropClient(`gw-${id}`);
    await waitFor(
      () => /^(online,)+offline,online/.test(states().join()) || null,
      'the offline will, then online again',
    );
  });

  it('resends unacked messages in order after ackTimeoutMs and trims the buffer on ack', async () => {
    const broker = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, false);
    ingest.attach(broker.broker);
    const { agent, bufferDir, stop } = await agentOn(broker.url, id, { ackTimeoutMs: 300 });

    const resentAt = await waitFor(() => {
      const seqs = ingest.arrivedSeqs();
      const again = seqs.indexOf(1, 1);
      return again > 0 && seqs.length >= again + 3 ? again : null;
    }, 'a resend from seq 1');
    expect(isConsecutive(ingest.arrivedSeqs().slice(0, resentAt))).toBe(true);
    expect(ingest.arrivedSeqs().slice(resentAt, resentAt + 3)).toEqual([1, 2, 3]);

    const acked = ingest.watermark;
    ingest.ack(acked);
    await waitFor(
      () => (agent.stats().oldestUnacked ?? Infinity) > acked,
      'the ack to trim the buffer',
    );
    await stop();
    const lastSeq = agent.stats().lastSeq;

    const buffer = OfflineBuffer.open(bufferDir, { maxMessages: 100 });
    expect(buffer.oldestSeq ?? Infinity).toBeGreaterThan(acked);
    expect(buffer.nextSeq).toBe(lastSeq + 1);
    buffer.close();

    // A restarted agent replays from the oldest unacked message and numbers on from lastSeq.
    const before = ingest.arrivals.length;
    const restarted = await agentOn(broker.url, id, { ackTimeoutMs: 300 }, bufferDir);
    await waitFor(() => restarted.agent.stats().lastSeq > lastSeq || null, 'a new message');
    await waitFor(() => ingest.arrivals.length > before + lastSeq - acked, 'the replay');
    const replay = ingest.arrivedSeqs().slice(before);
    expect(replay[0]).toBe(acked + 1);
    expect(Math.min(...replay)).toBe(acked + 1);
  });

  it('buffers while the broker is down and replays in order, without gaps, when it returns', async () => {
    const first = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, true);
    ingest.attach(first.broker);
    const { agent, stop } = await agentOn(first.url, id);
    await waitFor(() => ingest.watermark >= 3, 'three acknowledged messages');

    await first.close();
    await waitFor(() => !agent.stats().connected, 'the agent to notice');
    await waitFor(() => agent.stats().unacked >= 5, 'messages buffered while offline');
    const arrivedBefore = ingest.arrivals.length;
    const lastWhileDown = agent.stats().lastSeq;

    const second = await startBroker(first.port);
    ingest.attach(second.broker);
    await waitFor(() => ingest.watermark > lastWhileDown, 'the replay to be accepted');
    await waitFor(() => agent.stats().unacked <= 2, 'acks for the replay');

    expect(ingest.refusedPastGap).toBe(0);
    expect(ingest.invalid).toBe(0);
    expect(isConsecutive(ingest.accepted.map((r) => r.message.seq))).toBe(true);
    // In order, without gaps: the replay may start again where the server's answer to the online
    // state says (a resend of what is in flight), so each seq counts at its first arrival.
    expect(isConsecutive([...new Set(ingest.arrivedSeqs().slice(arrivedBefore))])).toBe(true);
    await stop();
  });

  it('after its full buffer dropped the oldest messages, says so (floor) and the ingest moves on', async () => {
    const first = await startBroker();
    const id = nextId();
    const ingest = new FakeIngest(id, true);
    ingest.attach(first.broker);
    const { agent, stop } = await agentOn(first.url, id, { bufferMaxMessages: 5 });
    await waitFor(() => ingest.watermark >= 2, 'two acknowledged messages');

    await first.close();
    await waitFor(() => !agent.stats().connected, 'the agent to notice');
    await waitFor(() => agent.stats().dropped >= 3, 'the full buffer to drop its oldest messages');

    const second = await startBroker(first.port);
    ingest.attach(second.broker);
    await waitFor(
      () => ingest.acceptedPastGap > 0 && agent.stats().unacked <= 2,
      'the replay past the gap',
    );

    expect(ingest.refusedPastGap).toBe(0);
    expect(ingest.acceptedPastGap).toBeGreaterThanOrEqual(3);
    const accepted = ingest.accepted.map((r) => r.message.seq);
    expect([...accepted].sort((a, b) => a - b)).toEqual(accepted);
    await stop();
  });
});
