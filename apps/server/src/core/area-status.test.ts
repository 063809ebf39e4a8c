import { OFFLINE_AFTER_MS } from '@linewatch/contracts/limits';
import { MACHINE_STATE, type MachineState } from '@linewatch/contracts/rules/machine-states';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AreaStatus, type StatusCounts } from './area-status.ts';
import type { RegistryLine } from './device-registry.ts';
import { LiveState, type LiveSeed } from './live-state.ts';
import type { DeviceInfo } from './machine.ts';
import { lineAreasOf } from './map-areas.ts';
import { effectsOf, type MachineSnapshot } from './reading-effects.ts';
import { deviceInfo, snapshotAt } from '../test/machines.ts';

const TZ = 'Asia/Shanghai';
const START = Date.UTC(2026, 10, 22, 6, 0, 0);
const CITIES = [
  ['中国', '广东省', '深圳市'],
  ['中国', '广东省', '东莞市'],
  ['中国', '江苏省', '苏州市'],
  ['德国', '', ''],
  ['', '', ''],
] as const;
const SNS = ['A', 'B', 'C', 'D', 'E', 'F'];

const machine = (sn: string, lineId: number, city: number): DeviceInfo => {
  const [country, province, town] = CITIES[city]!;
  return deviceInfo(sn, { lineId, place: { country, province, city: town } });
};

/** The device registry's lines as it builds them, from a machine → [line, city] table. */
class Registry {
  version = 0;
  #lines: RegistryLine[] = [];
  constructor(public placed: Map<string, [number, number]>) {
    this.rebuild();
  }
  rebuild() {
    const byLine = new Map<number, DeviceInfo[]>();
    for (const [sn, [lineId, city]] of [...this.placed].sort()) {
      const machines = byLine.get(lineId) ?? [];
      machines.push(machine(sn, lineId, city));
      byLine.set(lineId, machines);
    }
    this.#lines = [...byLine].map(([id, machines]) => ({
      id,
      name: `L${id}`,
      machines,
      areas: lineAreasOf(machines),
    }));
    this.version++;
  }
  lines() {
    return this.#lines;
  }
}

const readingOf = (sn: string, ts: number, status: MachineState) => ({
  sn,
  ts,
  status,
  counters: { produced: 0, ok: 0, ng: 0, firstPassOk: 0 },
  alarms: [],
});

const seedOf = (snapshots: [string, MachineSnapshot][]): LiveSeed => ({
  snapshots: new Map(snapshots),
  today: new Map(),
  hourly: [],
  recentMinutes: [],
});

/** Every area of every line, counted machine by machine with statusOf, as the list does. */
const expectCountsAsStatusOf = (
  registry: Registry,
  live: LiveState,
  status: AreaStatus,
  now: number,
) => {
  for (const line of registry.lines())
    for (const byName of Object.values(line.areas))
      for (const area of byName.values()) {
        const expected: StatusCounts = { running: 0, standBy: 0, error: 0, offLine: 0 };
        for (const d of area.machines) expected[live.statusOf(d.sn, now)] += 1;
        expect(status.of(area, now)).toEqual(expected);
      }
};

const LIMITS = { ppmTarget: 0, maxPpm: null };

/** One line of `sns` (in places 0, 1, …), its live state, its counts and its world area. */
const oneLine = (sns: string[]) => {
  const registry = new Registry(new Map(sns.map((sn, i) => [sn, [1, i % CITIES.length]])));
  const live = new LiveState(TZ);
  const status = new AreaStatus(registry, live);
  return { registry, live, status, world: registry.lines()[0]!.areas.world.get('')! };
};

const STATES = [MACHINE_STATE.idle, MACHINE_STATE.running, MACHINE_STATE.fault] as const;

const step = fc.oneof(
  // Time passes (now and then far: a night without a read), and the map is read.
  fc.record({
    kind: fc.constant('read' as const),
    ms: fc.oneof(
      fc.integer({ min: 0, max: 3_000 }),
      fc.integer({ min: 0, max: 2 * OFFLINE_AFTER_MS }),
      fc.constant(86_400_000),
    ),
  }),
  // A reading, on time or late (a replayed buffer), or ahead (a gateway's clock runs fast).
  fc.record({
    kind: fc.constant('reading' as const),
    sn: fc.constantFrom(...SNS),
    offset: fc.oneof(
      fc.integer({ min: -2 * OFFLINE_AFTER_MS, max: 5_000 }),
      // Close to falling silent.
      fc.integer({ min: -OFFLINE_AFTER_MS - 3_000, max: -OFFLINE_AFTER_MS + 3_000 }),
    ),
    state: fc.constantFrom(...STATES),
  }),
  // Another instance wrote the machine's stream: its state is what the database holds, older.
  fc.record({
    kind: fc.constant('replace' as const),
    sn: fc.constantFrom(...SNS),
    offset: fc.option(fc.integer({ min: -2 * OFFLINE_AFTER_MS, max: 0 })),
    state: fc.constantFrom(...STATES),
  }),
  // An admin moves a machine to another line or place, or takes it off the lists.
  fc.record({
    kind: fc.constant('move' as const),
    sn: fc.constantFrom(...SNS),
    to: fc.option(fc.tuple(fc.integer({ min: 1, max: 2 }), fc.nat({ max: CITIES.length - 1 }))),
  }),
);

describe('each map area by live status, kept as statuses change', () => {
  it('counts every area as statusOf does, whatever happens in between', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const registry = new Registry(
          new Map(SNS.map((sn, i) => [sn, [1 + (i % 2), i % CITIES.length]])),
        );
        const live = new LiveState(TZ);
        const status = new AreaStatus(registry, live);
        let now = START;
        expectCountsAsStatusOf(registry, live, status, now);
        for (const s of steps) {
          if (s.kind === 'read') {
            now += s.ms;
            expectCountsAsStatusOf(registry, live, status, now);
          } else if (s.kind === 'reading') {
            const reading = readingOf(s.sn, now + s.offset, s.state);
            const effects = effectsOf(live.snapshot(s.sn), reading, LIMITS);
            live.apply(s.sn, effects, now);
          } else if (s.kind === 'replace') {
            const held = s.offset === null ? [] : [[s.sn, snapshotAt(now + s.offset, s.state)]];
            live.replace([s.sn], seedOf(held as [string, MachineSnapshot][]), now);
          } else {
            if (s.to) registry.placed.set(s.sn, s.to);
            else registry.placed.delete(s.sn);
            registry.rebuild();
          }
        }
        expectCountsAsStatusOf(registry, live, status, now);
      }),
      { numRuns: 500 },
    );
  });

  it('turns a machine offline the moment it has been silent over OFFLINE_AFTER_MS', () => {
    const { live, status, world } = oneLine(['A']);
    live.apply('A', effectsOf(undefined, readingOf('A', START, MACHINE_STATE.running), LIMITS));
    expect(status.of(world, START + OFFLINE_AFTER_MS)).toMatchObject({ running: 1, offLine: 0 });
    expect(status.of(world, START + OFFLINE_AFTER_MS + 1)).toMatchObject({
      running: 0,
      offLine: 1,
    });
  });

  it('turns machines offline after a long quiet without a read, to the millisecond', () => {
    const { live, status, world } = oneLine(['A', 'B']);
    expect(status.of(world, START)).toMatchObject({ offLine: 2 });
    live.apply('A', effectsOf(undefined, readingOf('A', START, MACHINE_STATE.running), LIMITS));
    live.apply('B', effectsOf(undefined, readingOf('B', START + 700, MACHINE_STATE.fault), LIMITS));
    // Far more seconds than machines waiting to fall silent have passed since the last read.
    expect(status.of(world, START + OFFLINE_AFTER_MS + 500)).toMatchObject({
      running: 0,
      error: 1,
      offLine: 1,
    });
    expect(status.of(world, START + OFFLINE_AFTER_MS + 701)).toMatchObject({ offLine: 2 });
  });

  it('says it cannot count an instant before one it counted, or an area of lines since reloaded', () => {
    const { registry, status, world } = oneLine(['A']);
    expect(status.of(world, START)).toMatchObject({ offLine: 1 });
    expect(status.of(world, START - 1)).toBeNull();
    registry.rebuild();
    expect(status.of(world, START)).toBeNull();
    expect(status.of(registry.lines()[0]!.areas.world.get('')!, START)).toMatchObject({
      offLine: 1,
    });
  });

  it('counts again from what the live state loaded', () => {
    const { live, status, world } = oneLine(['A']);
    expect(status.of(world, START)).toMatchObject({ offLine: 1 });
    live.load(seedOf([['A', snapshotAt(START, MACHINE_STATE.fault)]]), START);
    expect(status.of(world, START)).toMatchObject({ error: 1, offLine: 0 });
  });
});
