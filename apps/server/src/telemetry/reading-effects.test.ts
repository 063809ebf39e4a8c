import type { Reading } from '@linewatch/contracts/mqtt';
import { describe, expect, it } from 'vitest';
import {
  effectsOf,
  MAX_ATTRIBUTED_GAP_MS,
  MINUTE_MS,
  type MachineSnapshot,
} from './reading-effects.ts';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);

const reading = (over: Partial<Reading> & { ts: number }): Reading => ({
  sn: 'SN-1',
  status: 2,
  counters: { produced: 0, ok: 0, ng: 0, firstPassOk: 0 },
  alarms: [],
  ...over,
});

const snapshot = (over: Partial<MachineSnapshot> = {}): MachineSnapshot => ({
  ts: T0,
  status: 2,
  idleReason: null,
  produced: 100,
  ok: 98,
  ng: 2,
  firstPassOk: 95,
  activeAlarms: [],
  ...over,
});

describe('effectsOf', () => {
  it('takes the first reading ever as the base only', () => {
    const effects = effectsOf(
      undefined,
      reading({ ts: T0, counters: { produced: 500, ok: 490, ng: 10, firstPassOk: 480 } }),
    );
    expect(effects.minutes.size).toBe(0);
    expect(effects.snapshot.produced).toBe(500);
    expect(effects.statusChange).toEqual({ ts: T0, status: 2, idleReason: null });
  });

  it('adds counter deltas to the minute of the reading and the elapsed time to the previous status', () => {
    const effects = effectsOf(
      snapshot(),
      reading({ ts: T0 + 5_000, counters: { produced: 105, ok: 102, ng: 3, firstPassOk: 99 } }),
    );
    expect(effects.minutes.get(T0)).toMatchObject({
      produced: 5,
      ok: 4,
      ng: 1,
      firstPassOk: 4,
      runningMs: 5_000,
      idleMs: 0,
      faultMs: 0,
    });
    expect(effects.statusChange).toBeNull();
  });

  it('survives a counter reset (PLC restart): the new total is the delta', () => {
    const effects = effectsOf(
      snapshot(),
      reading({ ts: T0 + 5_000, counters: { produced: 7, ok: 7, ng: 0, firstPassOk: 7 } }),
    );
    expect(effects.minutes.get(T0)).toMatchObject({ produced: 7, ok: 7, ng: 0, firstPassOk: 7 });
  });

  it('splits the time between readings at minute boundaries', () => {
    const previous = snapshot({ ts: T0 + 50_000, status: 3 });
    const effects = effectsOf(
      previous,
      reading({
        ts: T0 + 70_000,
        status: 3,
        counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
      }),
    );
    expect(effects.minutes.get(T0)?.faultMs).toBe(10_000);
    expect(effects.minutes.get(T0 + MINUTE_MS)?.faultMs).toBe(10_000);
  });

  it('attributes idle time by reason, and does not attribute a long silence', () => {
    const idle = snapshot({ status: 1, idleReason: 'upstream' });
    expect(
      effectsOf(
        idle,
        reading({
          ts: T0 + 3_000,
          status: 1,
          idleReason: 'upstream',
          counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
        }),
      ).minutes.get(T0),
    ).toMatchObject({
      idleMs: 3_000,
      idleUpstreamMs: 3_000,
      idleDownstreamMs: 0,
    });
    const late = effectsOf(
      snapshot(),
      reading({
        ts: T0 + MAX_ATTRIBUTED_GAP_MS + MINUTE_MS,
        counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
      }),
    );
    const total = [...late.minutes.values()].reduce(
      (sum, f) => sum + f.runningMs + f.idleMs + f.faultMs,
      0,
    );
    expect(total).toBe(0);
  });

  it('reports status changes and alarm edges', () => {
    const raised = effectsOf(
      snapshot(),
      reading({
        ts: T0 + 1_000,
        status: 3,
        alarms: [{ code: 'E101', active: true }],
        counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
      }),
    );
    expect(raised.statusChange).toEqual({ ts: T0 + 1_000, status: 3, idleReason: null });
    expect(raised.alarmsRaised).toEqual([{ code: 'E101', ts: T0 + 1_000 }]);
    expect(raised.alarmsCleared).toEqual([]);

    const cleared = effectsOf(
      raised.snapshot,
      reading({
        ts: T0 + 2_000,
        status: 2,
        alarms: [{ code: 'E101', active: false }],
        counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
      }),
    );
    expect(cleared.alarmsCleared).toEqual([{ code: 'E101', ts: T0 + 2_000 }]);
    expect(cleared.snapshot.activeAlarms).toEqual([]);
  });

  it('keeps the snapshot time moving forward when a reading arrives late', () => {
    const effects = effectsOf(
      snapshot({ ts: T0 + 10_000 }),
      reading({ ts: T0 + 5_000, counters: { produced: 103, ok: 101, ng: 2, firstPassOk: 98 } }),
    );
    expect(effects.snapshot.ts).toBe(T0 + 10_000);
    expect(effects.minutes.get(T0)).toMatchObject({ produced: 3, runningMs: 0 });
  });
});
