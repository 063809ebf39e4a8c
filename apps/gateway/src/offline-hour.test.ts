import { modbusProfiles } from '@linewatch/contracts/plc-profiles';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from './agent.ts';
import { parseConfig } from './config.ts';
import { startSimulatedPlc } from './plc-sim/simulated-plc.ts';
import { FakeIngest, onCleanup, runCleanups, startBroker, tempDir, waitFor } from './testing.ts';

const HOUR = 3_600_000;
/** Simulated milliseconds per real one: an hour passes in 3.6 s. */
const SPEED = 1000;
const T0 = Date.UTC(2026, 10, 23, 8);

/** The agent's simulated clock: T0 when the test starts, SPEED times faster than real time. */
const simulatedClock = () => {
  const realStart = Date.now();
  return () => T0 + (Date.now() - realStart) * SPEED;
};

/**
 * The broker is gone for an hour of the agent's clock while it keeps reading a PLC over Modbus
 * TCP (the plc-sim server) into its buffer on disk; then it comes back. Real broker, real agent,
 * real Modbus reads; the server's ingest is FakeIngest (its accept rules: in order, no gap).
 */
const outageOfAnHour = async (bounds: { bufferMaxAgeMs?: number }) => {
  const plc = await startSimulatedPlc({
    host: '127.0.0.1',
    port: 0,
    profile: modbusProfiles.FX5U!,
    machine: { sn: 'SN-HOUR-1', ppmTarget: 120, faultRate: 0, resetRate: 0, timeScale: SPEED },
    tickMs: 5,
  });
  onCleanup(() => plc.close());
  const first = await startBroker();
  const id = 'LWGWHOUR0001';
  const ingest = new FakeIngest(id, true);
  ingest.attach(first.broker);
  const now = simulatedClock();
  const config = parseConfig({
    brokerUrl: first.url,
    // One poll a simulated second, a heartbeat every simulated 5 s.
    pollIntervalMs: 1,
    heartbeatMs: 5000,
    ackTimeoutMs: 5000,
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    keepaliveSec: 5,
    ...bounds,
    gateways: [
      {
        id,
        password: 'pw',
        bufferDir: tempDir(),
        machines: [
          {
            driver: 'modbus',
            sn: 'SN-HOUR-1',
            plcIp: '127.0.0.1',
            port: plc.port,
            plcModel: 'FX5U',
          },
        ],
      },
    ],
  });
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (message: string) => warnings.push(message);
  onCleanup(() => (console.warn = warn));
  const agent = await startGateway(config.gateways[0]!, config, now);
  onCleanup(() => agent.stop());
  await waitFor(() => ingest.watermark >= 3, 'three acknowledged messages');

  await first.close();
  await waitFor(() => !agent.stats().connected, 'the agent to notice');
  const outageFrom = now();
  const seqBefore = agent.stats().lastSeq;
  await waitFor(() => now() - outageFrom >= HOUR || null, 'an hour of the agent’s clock');
  const seqAfter = agent.stats().lastSeq;

  const second = await startBroker(first.port);
  ingest.attach(second.broker);
  await waitFor(() => ingest.watermark >= seqAfter || null, 'the replay to be accepted');
  await waitFor(() => agent.stats().unacked <= 2 || null, 'acks for the replay');
  const readings = ingest.accepted.flatMap((r) =>
    r.kind === 'telemetry' ? r.message.readings : [],
  );
  return { agent, ingest, warnings, outageFrom, seqBefore, seqAfter, readings };
};

describe('a one-hour outage, on a simulated clock', () => {
  afterEach(runCleanups);

  it('replays everything read over Modbus in the hour, in order, with no gap and no duplicate', async () => {
    const { agent, ingest, outageFrom, seqBefore, seqAfter, readings } = await outageOfAnHour({});
    // Every message the agent numbered, accepted once and in order: nothing lost, nothing twice.
    const accepted = ingest.accepted.map((r) => r.message.seq);
    expect(accepted.slice(0, seqAfter)).toEqual(Array.from({ length: seqAfter }, (_, i) => i + 1));
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(ingest.refusedPastGap).toBe(0);
    expect(ingest.acceptedPastGap).toBe(0);
    expect(agent.stats().dropped).toBe(0);
    // The hour is there: readings all through it, in time order, counters never going back.
    const during = readings.filter((r) => r.ts >= outageFrom && r.ts <= outageFrom + HOUR);
    expect(seqAfter - seqBefore).toBeGreaterThan(100);
    expect(during.length).toBeGreaterThan(100);
    // (A loaded machine may pause the polls, never the clock: the span, not its edges, is checked.)
    expect(during.at(-1)!.ts - during[0]!.ts).toBeGreaterThanOrEqual(HOUR / 2);
    readings.forEach((r, i) => {
      if (i === 0) return;
      expect(r.ts).toBeGreaterThan(readings[i - 1]!.ts);
      expect(r.counters.produced).toBeGreaterThanOrEqual(readings[i - 1]!.counters.produced);
    });
  });

  it('keeps only the last half hour when the age bound is half an hour, and counts the rest', async () => {
    const { agent, ingest, warnings, outageFrom, readings } = await outageOfAnHour({
      bufferMaxAgeMs: HOUR / 2,
    });
    expect(agent.stats().dropped).toBeGreaterThan(0);
    expect(
      warnings.some((w) => /oldest unacked messages dropped \(older than 1800000 ms\)/.test(w)),
    ).toBe(true);
    // The server was told where the kept messages begin (floor) and took them from there.
    expect(ingest.refusedPastGap).toBe(0);
    // (The clock runs on while the replay waits for its acks: a few more may age out meanwhile.)
    expect(ingest.acceptedPastGap).toBeGreaterThan(0);
    expect(ingest.acceptedPastGap).toBeLessThanOrEqual(agent.stats().dropped);
    const accepted = ingest.accepted.map((r) => r.message.seq);
    expect([...accepted].sort((a, b) => a - b)).toEqual(accepted);
    const replayed = readings.filter((r) => r.ts >= outageFrom);
    expect(replayed[0]!.ts).toBeGreaterThanOrEqual(outageFrom + HOUR / 2 - HOUR / 10);
  });
});
