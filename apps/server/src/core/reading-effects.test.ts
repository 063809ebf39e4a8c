import type { Reading } from '@linewatch/contracts/mqtt';
import {
  deriveFigures,
  isCoveredMinute,
  observedProduced,
} from '@linewatch/contracts/rules/figures';
import { describe, expect, it } from 'vitest';
import { addFigures, emptyFigures, type Figures } from '../foundation/shared/metrics.ts';
import {
  effectsOf as effectsWithin,
  MAX_ATTRIBUTED_GAP_MS,
  MINUTE_MS,
  type CounterLimits,
  type MachineSnapshot,
} from './reading-effects.ts';

/** A machine with no target and no ceiling: every rise is believed, every drop is a reboot. */
const UNJUDGED: CounterLimits = { ppmTarget: 0, maxPpm: null };
const effectsOf = (previous: MachineSnapshot | undefined, r: Reading) =>
  effectsWithin(previous, r, UNJUDGED);

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

  it('names each alarm code once, in order, and an unchanged set raises and clears nothing', () => {
    const at = (ts: number, alarms: Reading['alarms'], previous = snapshot()) =>
      effectsOf(
        previous,
        reading({ ts, alarms, counters: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 } }),
      );
    const first = at(T0 + 1_000, [
      { code: 'B', active: true },
      { code: 'A', active: true },
      { code: 'A', active: true },
      { code: 'C', active: false },
    ]);
    expect(first.snapshot.activeAlarms).toEqual(['B', 'A']);
    expect(first.alarmsRaised).toEqual([
      { code: 'B', ts: T0 + 1_000 },
      { code: 'A', ts: T0 + 1_000 },
    ]);
    const same = at(
      T0 + 2_000,
      [
        { code: 'B', active: true },
        { code: 'A', active: true },
      ],
      first.snapshot,
    );
    expect(same.snapshot.activeAlarms).toEqual(['B', 'A']);
    expect([same.alarmsRaised, same.alarmsCleared]).toEqual([[], []]);
    // A list read back with a code twice clears it once.
    const seeded = snapshot({ activeAlarms: ['A', 'A', 'B'] });
    const later = at(
      T0 + 3_000,
      [
        { code: 'A', active: true },
        { code: 'D', active: true },
      ],
      seeded,
    );
    expect(later.snapshot.activeAlarms).toEqual(['A', 'D']);
    expect(later.alarmsRaised).toEqual([{ code: 'D', ts: T0 + 3_000 }]);
    expect(later.alarmsCleared).toEqual([{ code: 'B', ts: T0 + 3_000 }]);
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

/** Scripted readings of one machine, every `stepMs`, each adding `parts` unless scripted. */
const replay = (limits: CounterLimits, script: { ts: number; produced: number }[]) => {
  let snap: MachineSnapshot | undefined;
  const total = emptyFigures();
  const perMinute = new Map<number, Figures>();
  let rebaselines = 0;
  for (const step of script) {
    const effects = effectsWithin(
      snap,
      reading({
        ts: step.ts,
        counters: {
          produced: step.produced,
          ok: step.produced,
          ng: 0,
          firstPassOk: step.produced,
        },
      }),
      limits,
    );
    snap = effects.snapshot;
    if (effects.rebaseline) rebaselines++;
    for (const [minute, f] of effects.minutes) {
      addFigures(total, f);
      let ofMinute = perMinute.get(minute);
      if (!ofMinute) perMinute.set(minute, (ofMinute = emptyFigures()));
      addFigures(ofMinute, f);
    }
  }
  // As a flush keeps them: the best observed minute, and the minutes PPM covers.
  const minutes = [...perMinute.values()];
  total.maxMinuteProduced = Math.max(0, ...minutes.map(observedProduced));
  total.coveredMinutes = minutes.filter(isCoveredMinute).length;
  return { total, rebaselines, snapshot: snap! };
};

/** Every 5 s for `minutes` minutes from `from` at `start`, `perReading` parts each. */
const steady = (fromTs: number, start: number, minutes: number, perReading: number) =>
  Array.from({ length: minutes * 12 }, (_, i) => ({
    ts: fromTs + (i + 1) * 5_000,
    produced: start + (i + 1) * perReading,
  }));

describe('plausible counters (docs/design.md section 5)', () => {
  const LINE = { ppmTarget: 75, maxPpm: null };

  it('re-baselines a jump no machine could make after a restart: today is not inflated', () => {
    // 10 minutes at 60 PPM, a 2-minute gap (gateway restarted), then the counter reads
    // 100,000 higher, then 10 more minutes at 60 PPM from the new value.
    const before = steady(T0, 1_000, 10, 5);
    const resume = T0 + 12 * MINUTE_MS;
    const after = steady(resume, 1_600 + 100_000, 10, 5);
    const {
      total,
      rebaselines,
      snapshot: last,
    } = replay(LINE, [
      { ts: T0, produced: 1_000 },
      ...before,
      { ts: resume, produced: 1_600 + 100_000 },
      ...after,
    ]);
    expect(rebaselines).toBe(1);
    expect(total.produced).toBe(600 + 600);
    expect(total.maxMinuteProduced).toBe(60);
    expect(last.produced).toBe(1_600 + 100_000 + 600);
  });

  it('believes what the machine could make in the time elapsed, at least a minute’s worth', () => {
    // 3 × 75 = 225 parts a minute: 220 in 5 s is within one minute's worth.
    expect(
      replay(LINE, [
        { ts: T0, produced: 0 },
        { ts: T0 + 5_000, produced: 220 },
      ]).total.produced,
    ).toBe(220);
    expect(
      replay(LINE, [
        { ts: T0, produced: 0 },
        { ts: T0 + 5_000, produced: 226 },
      ]).rebaselines,
    ).toBe(1);
    // After 4 minutes of silence (attributed), up to 4 × 225.
    const quiet = replay(LINE, [
      { ts: T0, produced: 0 },
      { ts: T0 + 4 * MINUTE_MS, produced: 900 },
    ]);
    expect(quiet).toMatchObject({ rebaselines: 0, total: { produced: 900 } });
  });

  it('uses the machine’s own maxPpm when set', () => {
    const slow = { ppmTarget: 75, maxPpm: 50 };
    const r = replay(slow, [
      { ts: T0, produced: 0 },
      { ts: T0 + MINUTE_MS, produced: 60 },
      { ts: T0 + 2 * MINUTE_MS, produced: 100 },
    ]);
    expect(r).toMatchObject({ rebaselines: 1, total: { produced: 40 } });
  });

  it('treats a drop to near zero as a PLC reboot, and a drop to anything else as a re-baseline', () => {
    const reboot = replay(LINE, [
      { ts: T0, produced: 50_000 },
      { ts: T0 + 5_000, produced: 12 },
      { ts: T0 + 10_000, produced: 20 },
    ]);
    expect(reboot).toMatchObject({ rebaselines: 0, total: { produced: 20 } });
    const shifted = replay(LINE, [
      { ts: T0, produced: 50_000 },
      { ts: T0 + 5_000, produced: 30_000 },
      { ts: T0 + 10_000, produced: 30_005 },
    ]);
    expect(shifted).toMatchObject({ rebaselines: 1, total: { produced: 5 } });
  });

  it('says what moved in the re-baseline', () => {
    const effects = effectsWithin(
      snapshot(),
      reading({
        ts: T0 + 5_000,
        counters: { produced: 100_100, ok: 100_098, ng: 2, firstPassOk: 96 },
      }),
      LINE,
    );
    expect(effects.rebaseline).toEqual({
      counters: ['produced', 'ok'],
      from: { produced: 100, ok: 98, ng: 2, firstPassOk: 95 },
      to: { produced: 100_100, ok: 100_098, ng: 2, firstPassOk: 96 },
    });
    expect([...effects.minutes.values()].every((f) => f.produced === 0 && f.ok === 0)).toBe(true);
    expect(effects.snapshot.produced).toBe(100_100);
  });
});

describe('silences (docs/design.md section 5)', () => {
  it('puts parts counted across a silence in the totals but in no minute’s PPM', () => {
    // 5 minutes at 60 PPM, 20 minutes of silence, the counter shows 600 more (plausible: the
    // line ran unobserved), then 5 more minutes at 60 PPM.
    const LINE = { ppmTarget: 75, maxPpm: null };
    const resume = T0 + 25 * MINUTE_MS;
    const { total, rebaselines } = replay(LINE, [
      { ts: T0, produced: 0 },
      ...steady(T0, 0, 5, 5),
      { ts: resume, produced: 900 },
      ...steady(resume, 900, 5, 5),
    ]);
    expect(rebaselines).toBe(0);
    expect(total).toMatchObject({ produced: 1_200, gapProduced: 600, runningMs: 10 * MINUTE_MS });
    expect(total.maxMinuteProduced).toBe(60);
    // Only the 600 observed parts, over the minutes PPM covers: each run of 5 minutes reaches
    // into a sixth with its last reading (on the minute), so 12 of them — never the silence's.
    expect(total.coveredMinutes).toBe(12);
    expect(deriveFigures(total).ppm).toBe(50);
  });
});
