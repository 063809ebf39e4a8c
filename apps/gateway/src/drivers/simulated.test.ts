import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { operationEvent, type OperationEvent } from '@linewatch/contracts/mqtt';
import { describe, expect, it } from 'vitest';
import type { DriverReading } from './driver.ts';
import { SimulatedDriver, type SimulatedMachineOptions } from './simulated.ts';

const T0 = Date.UTC(2025, 0, 6, 8);
const HOUR = 3_600_000;

const driver = (options: Partial<SimulatedMachineOptions> = {}) =>
  new SimulatedDriver({
    sn: 'SN-SIM-001',
    seed: 7,
    ppmTarget: 60,
    faultRate: 0.02,
    resetRate: 0,
    timeScale: 1,
    ...options,
  });

/** Reads every `stepMs` of real time over `spanMs`, as the agent's poll loop would. */
async function run(d: SimulatedDriver, spanMs: number, stepMs: number) {
  const readings: DriverReading[] = [];
  const events: OperationEvent[] = [];
  for (let t = T0; t <= T0 + spanMs; t += stepMs) {
    readings.push(await d.read(t));
    events.push(...d.takeEvents());
  }
  return { readings, events };
}

describe('SimulatedDriver', () => {
  it('keeps counters consistent and monotonic, with alarms active exactly during faults', async () => {
    const { readings } = await run(driver(), 72 * HOUR, 10_000);
    const broken = readings.filter((r, i) => {
      const { status, idleReason, counters, alarms } = r;
      const previous = readings[i - 1]?.counters ?? counters;
      return (
        counters.ok + counters.ng !== counters.produced ||
        counters.firstPassOk > counters.ok ||
        (['produced', 'ok', 'ng', 'firstPassOk'] as const).some((k) => counters[k] < previous[k]) ||
        (idleReason !== undefined) !== (status === 1) ||
        alarms.some((a) => a.active) !== (status === 3) ||
        !alarms.every((a) => /^E\d{3}$/.test(a.code))
      );
    });
    expect(broken).toEqual([]);
    const faultAt = readings.findIndex((r) => r.status === 3);
    expect(faultAt).toBeGreaterThanOrEqual(0);
    const code = readings[faultAt]!.alarms[0]!.code;
    const cleared = readings.slice(faultAt).find((r) => r.status !== 3);
    expect(cleared?.alarms).toEqual([{ code, active: false }]);
  });

  it('runs about 80% of the time at a PPM near target, with 1-3% NG', async () => {
    const step = 10_000;
    const { readings } = await run(driver({ seed: 11, ppmTarget: 45 }), 10 * 24 * HOUR, step);
    const share = (status: number) =>
      readings.filter((r) => r.status === status).length / readings.length;
    expect(share(2)).toBeGreaterThan(0.74);
    expect(share(2)).toBeLessThan(0.86);
    expect(share(1)).toBeGreaterThan(0.08);
    expect(share(1)).toBeLessThan(0.16);
    expect(share(3)).toBeGreaterThan(0.05);
    expect(share(3)).toBeLessThan(0.11);

    let produced = 0;
    let runningMinutes = 0;
    for (let i = 1; i < readings.length; i++) {
      produced += readings[i]!.counters.produced - readings[i - 1]!.counters.produced;
      if (readings[i]!.status === 2) runningMinutes += step / 60_000;
    }
    expect(produced / runningMinutes).toBeGreaterThan(45 * 0.95);
    expect(produced / runningMinutes).toBeLessThan(45 * 1.05);

    const first = readings[0]!.counters;
    const last = readings.at(-1)!.counters;
    const ngShare = (last.ng - first.ng) / (last.produced - first.produced);
    expect(ngShare).toBeGreaterThanOrEqual(0.01);
    expect(ngShare).toBeLessThanOrEqual(0.03);
  });

  it('emits operator setpoint changes as operation events, on a clock sped up by timeScale', async () => {
    // 10 real minutes at timeScale 60 is 10 simulated hours: 30-60 setpoint changes.
    const { readings, events } = await run(driver({ timeScale: 60 }), 10 * 60_000, 1000);
    expect(events.length).toBeGreaterThanOrEqual(25);
    expect(events.length).toBeLessThanOrEqual(65);
    for (const event of events) {
      expect(operationEvent.parse(event)).toEqual(event);
      expect(event.sn).toBe('SN-SIM-001');
      expect(event.comment).toMatch(/^修改(速度|温度|压力)设定$/);
      expect(event.user).toMatch(/^(操作员|班长)/);
      expect(event.ts).toBeGreaterThanOrEqual(T0);
      expect(event.ts).toBeLessThanOrEqual(T0 + 10 * 60_000);
    }
    const lastChange = events.at(-1)!;
    const name = lastChange.comment.replace('修改', '');
    expect(String(readings.at(-1)!.params?.[name])).toBe(lastChange.setValue);
  });

  it('is deterministic for a seed', async () => {
    const a = await run(driver({ seed: 3, timeScale: 30 }), HOUR, 5000);
    const b = await run(driver({ seed: 3, timeScale: 30 }), HOUR, 5000);
    const c = await run(driver({ seed: 4, timeScale: 30 }), HOUR, 5000);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('drops its counters to zero on a simulated PLC reboot when resetRate is set', async () => {
    const { readings } = await run(driver({ resetRate: 1 }), 10 * HOUR, 60_000);
    const drops = readings.filter(
      (r, i) => i > 0 && r.counters.produced < readings[i - 1]!.counters.produced,
    );
    expect(drops.length).toBeGreaterThan(0);
  });

  it('keeps a machine waiting for maintenance in its fault for hours, then back into it after a run', async () => {
    const maintenance = { alarm: 'E518', faultMinutes: 360, runMinutes: 60 };
    const { readings } = await run(driver({ seed: 5, maintenance }), 14 * HOUR, 60_000);
    const statusAt = (hour: number) => readings[hour * 60]!.status;
    // In fault with its one alarm from the first reading until the repair six hours later…
    const firstRepair = readings.findIndex((r) => r.status !== 3);
    expect(firstRepair).toBe(360);
    for (const r of readings.slice(0, firstRepair))
      expect(r.alarms).toEqual([{ code: 'E518', active: true }]);
    // …then an hour of running, and the same fault again.
    expect(statusAt(6.5)).toBe(2);
    expect(readings[firstRepair]!.alarms).toEqual([{ code: 'E518', active: false }]);
    expect(statusAt(7.5)).toBe(3);
    expect(readings[7.5 * 60]!.alarms).toEqual([{ code: 'E518', active: true }]);
    expect(statusAt(13.5)).toBe(2);
  });

  describe('across gateway restarts (stateDir)', () => {
    const stateDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'lw-plc-'));
    const produced = (r: DriverReading) => r.counters.produced;

    it('continues its counters after a clean stop, as a real PLC does', async () => {
      const dir = stateDir();
      const first = driver({ stateDir: dir });
      const before = await run(first, HOUR, 1000);
      await first.close();
      const last = before.readings.at(-1)!;

      const second = driver({ stateDir: dir });
      const after = await second.read(T0 + HOUR + 1000);
      // One more second of production at most, never back to the start value.
      expect(produced(after)).toBeGreaterThanOrEqual(produced(last));
      expect(produced(after)).toBeLessThanOrEqual(produced(last) + 2);
      expect(after.params).toEqual(last.params);
      await second.close();
    });

    it('recomputes the counts it had reported after a kill (no close), and counts the downtime', async () => {
      const dir = stateDir();
      const first = driver({ stateDir: dir });
      const { readings } = await run(first, HOUR, 1000); // killed: never closed
      const last = readings.at(-1)!;

      const again = driver({ stateDir: dir });
      expect((await again.read(T0 + HOUR)).counters).toEqual(last.counters);
      // The machine kept running while its gateway was down: ten minutes later it made more.
      const later = await again.read(T0 + HOUR + 10 * 60_000);
      expect(produced(later)).toBeGreaterThan(produced(last));
      expect(produced(later)).toBeLessThan(produced(last) + 10 * 60 * 1.2);
    });

    it('still starts from its own value without a stateDir (tests) and reboots only when simulated', async () => {
      const fresh = await driver().read(T0);
      const restarted = await driver().read(T0 + HOUR);
      expect(restarted.counters).toEqual(fresh.counters);
      const dir = stateDir();
      const rebooting = driver({ stateDir: dir, resetRate: 1 });
      await run(rebooting, 10 * HOUR, 60_000);
      await rebooting.close();
      const saved = JSON.parse(fs.readFileSync(path.join(dir, 'SN-SIM-001.json'), 'utf8')) as {
        counters: { produced: number };
      };
      const resumed = await driver({ stateDir: dir, resetRate: 1 }).read(T0 + 10 * HOUR);
      expect(resumed.counters.produced).toBe(saved.counters.produced);
    });
  });
});
