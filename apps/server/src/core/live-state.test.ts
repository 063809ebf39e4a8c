import { describe, expect, it } from 'vitest';
import { emptyFigures, type Figures } from '../foundation/shared/metrics.ts';
import { LiveState } from './live-state.ts';
import { effectsOf, MINUTE_MS, type MachineSnapshot } from './reading-effects.ts';

const TZ = 'Asia/Shanghai';
// 2026-11-22 14:00 in Shanghai.
const NOW = Date.UTC(2026, 10, 22, 6, 0, 0);

const snapshot = (ts: number, produced: number): MachineSnapshot => ({
  ts,
  status: 2,
  idleReason: null,
  produced,
  ok: produced,
  ng: 0,
  firstPassOk: produced,
  activeAlarms: [],
});

const readingAt = (ts: number, produced: number) => ({
  sn: 'SN-1',
  ts,
  status: 2 as const,
  counters: { produced, ok: produced, ng: 0, firstPassOk: produced },
  alarms: [],
});

const UNJUDGED = { ppmTarget: 0, maxPpm: null };

describe('LiveState', () => {
  it('reloads today’s figures whole, waiting times included', () => {
    const today: Figures = {
      ...emptyFigures(),
      produced: 500,
      ok: 490,
      ng: 10,
      firstPassOk: 480,
      gapProduced: 20,
      runningMs: 600_000,
      idleMs: 120_000,
      idleUpstreamMs: 70_000,
      idleDownstreamMs: 50_000,
      maxMinuteProduced: 61,
    };
    const live = new LiveState(TZ);
    live.load(
      { snapshots: new Map(), today: new Map([['SN-1', today]]), hourly: [], recentMinutes: [] },
      NOW,
    );
    expect(live.get('SN-1')?.today).toEqual(today);
  });

  it('takes today’s peak from the stored minute totals once a late minute is flushed', () => {
    const live = new LiveState(TZ);
    const late = NOW - 10 * MINUTE_MS;
    let snap = snapshot(late - 5_000, 0);
    for (const [ts, produced] of [
      [late + 10_000, 60],
      [late + 20_000, 100],
    ] as const) {
      const effects = effectsOf(snap, readingAt(ts, produced), UNJUDGED);
      live.apply('SN-1', effects, NOW);
      snap = effects.snapshot;
    }
    // The minute left memory: each late part alone is only a lower bound of its minute.
    expect(live.get('SN-1')?.today.maxMinuteProduced).toBe(60);
    const changed: string[] = [];
    live.onChange((sn) => changed.push(sn));
    live.settle([{ sn: 'SN-1', minute: late, observed: 100 }], NOW);
    expect(live.get('SN-1')?.today.maxMinuteProduced).toBe(100);
    expect(changed).toEqual(['SN-1']);
  });

  it('counts each minute PPM covers once: at once in the window, a late one when flushed', () => {
    const live = new LiveState(TZ);
    // Covered in the window before a restart (loaded): a reading in it counts nothing more.
    const loaded = NOW - 2 * MINUTE_MS;
    live.load(
      {
        snapshots: new Map(),
        today: new Map([['SN-1', { ...emptyFigures(), produced: 10, coveredMinutes: 7 }]]),
        hourly: [],
        recentMinutes: [{ sn: 'SN-1', minute: loaded, observed: 10, covered: true }],
      },
      NOW,
    );
    let snap = snapshot(loaded + 30_000, 0);
    for (const ts of [loaded + 40_000, NOW - MINUTE_MS + 5_000, NOW - MINUTE_MS + 10_000]) {
      const effects = effectsOf(snap, readingAt(ts, snap.produced + 3), UNJUDGED);
      live.apply('SN-1', effects, NOW);
      snap = effects.snapshot;
    }
    // One minute more (the last one); its flush agrees and changes nothing.
    expect(live.get('SN-1')?.today.coveredMinutes).toBe(8);
    live.settle([{ sn: 'SN-1', minute: NOW - MINUTE_MS, observed: 6, firstCovered: true }], NOW);
    expect(live.get('SN-1')?.today.coveredMinutes).toBe(8);
    // A late minute (out of the window) counts when its flush was the first to cover it.
    const late = NOW - 30 * MINUTE_MS;
    live.settle([{ sn: 'SN-1', minute: late, observed: 4, firstCovered: true }], NOW);
    live.settle([{ sn: 'SN-1', minute: late, observed: 8, firstCovered: false }], NOW);
    expect(live.get('SN-1')?.today.coveredMinutes).toBe(9);
  });

  it('says which machines had a past day written by a flush (their whole-day sums changed)', () => {
    const live = new LiveState(TZ);
    const pastDays: string[][] = [];
    live.onPastDayWritten((sns) => pastDays.push([...sns]));
    const yesterday = NOW - 24 * 60 * MINUTE_MS;
    live.settle(
      [
        { sn: 'SN-1', minute: NOW - MINUTE_MS, observed: 5 },
        { sn: 'SN-2', minute: yesterday, observed: 5 },
        { sn: 'SN-2', minute: yesterday + MINUTE_MS, observed: 5 },
      ],
      NOW,
    );
    expect(pastDays).toEqual([['SN-2']]);
    live.settle([{ sn: 'SN-1', minute: NOW, observed: 5 }], NOW);
    expect(pastDays).toHaveLength(1);
  });

  it('gives today’s figures, and none for a machine last heard on another day', () => {
    const live = new LiveState(TZ);
    const today = { ...emptyFigures(), produced: 42 };
    live.load(
      { snapshots: new Map(), today: new Map([['SN-1', today]]), hourly: [], recentMinutes: [] },
      NOW,
    );
    expect(live.todayOf('SN-1', NOW)).toEqual(today);
    expect(live.todayOf('SN-1', NOW + 24 * 60 * MINUTE_MS)).toEqual(emptyFigures());
    expect(live.todayOf('SN-unknown', NOW)).toEqual(emptyFigures());
  });

  it('counts a minute in memory whole, and parts across a silence in no minute', () => {
    const live = new LiveState(TZ);
    const minute = NOW - 2 * MINUTE_MS;
    let snap = snapshot(minute - 20 * MINUTE_MS, 0);
    for (const [ts, produced] of [
      [minute + 1_000, 300],
      [minute + 10_000, 330],
      [minute + 20_000, 370],
    ] as const) {
      const effects = effectsOf(snap, readingAt(ts, produced), UNJUDGED);
      live.apply('SN-1', effects, NOW);
      snap = effects.snapshot;
    }
    expect(live.get('SN-1')?.today).toMatchObject({
      produced: 370,
      gapProduced: 300,
      maxMinuteProduced: 70,
    });
    expect(live.get('SN-1')?.recentMinutes.get(minute)).toBe(70);
  });
});
