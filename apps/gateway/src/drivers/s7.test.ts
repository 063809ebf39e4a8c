import { s7Profiles } from '@linewatch/contracts/plc-profiles';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlcServer, type SimulatedPlc } from '../plc-sim/simulated-plc.ts';
import { onCleanup, runCleanups } from '../testing.ts';
import type { PlcImage } from './figures.ts';
import { S7Driver } from './s7.ts';

// Against snap7's S7 server (node-snap7, plc-sim/s7-plc.ts), never a fake. node-snap7 is a
// native module: where it did not build, these tests fail saying so (never skipped).
afterEach(runCleanups);

const profile = s7Profiles['S7-1200-S7']!;

const image: PlcImage = {
  status: 2,
  counters: { produced: 70_000, ok: 69_000, ng: 1000, firstPassOk: 68_000 },
  activeAlarms: [],
  setpoints: [60, 180, 5],
};

const serve = async (port = 0): Promise<SimulatedPlc> => {
  const plc = await startPlcServer({ host: '127.0.0.1', port, profile, image: () => image });
  onCleanup(() => plc.close());
  return plc;
};

const driverOf = (port: number) => {
  const driver = new S7Driver({
    sn: 'SN-S7-1',
    host: '127.0.0.1',
    port,
    rack: profile.rack,
    slot: profile.slot,
    profile,
    timeoutMs: 500,
    reconnectMs: 50,
  });
  onCleanup(() => driver.close());
  return driver;
};

/** Resolves with the first truthy answer of `probe`, asked again every 20 ms. */
const until = async <T>(probe: () => Promise<T | null | false>, what: string): Promise<T> => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the S7 driver against snap7’s server', () => {
  it('reads every figure at its data block address, and each change', async () => {
    const plc = await serve();
    const driver = driverOf(plc.port);
    expect(await driver.read(Date.now())).toEqual({
      status: 2,
      counters: { produced: 70_000, ok: 69_000, ng: 1000, firstPassOk: 68_000 },
      alarms: [],
      params: { 速度设定: 60, 温度设定: 180, 压力设定: 5 },
    });
    Object.assign(image, {
      status: 1,
      idleReason: 'downstream',
      activeAlarms: ['E205', 'E518'],
      setpoints: [65, 180, 5],
    });
    const changed = await until(async () => {
      const reading = await driver.read(Date.now());
      return reading.status === 1 && reading;
    }, 'the change');
    expect(changed).toMatchObject({
      idleReason: 'downstream',
      alarms: [
        { code: 'E205', active: true },
        { code: 'E518', active: true },
      ],
    });
    expect(driver.takeEvents()).toMatchObject([{ comment: '修改速度设定', setValue: '65' }]);
  });

  it('fails a read while the PLC is away and reads it again once it is back', async () => {
    const plc = await serve();
    const driver = driverOf(plc.port);
    await driver.read(Date.now());
    await plc.close();
    await expect(driver.read(Date.now())).rejects.toThrow(/S7/);
    image.counters = { ...image.counters, produced: 80_000 };
    await serve(plc.port);
    const again = await until(
      () => driver.read(Date.now()).catch(() => null),
      'a reading after the restart',
    );
    expect(again.counters.produced).toBe(80_000);
  });

  it('fails clearly when nothing answers at the address', async () => {
    const plc = await serve();
    await plc.close();
    await expect(driverOf(plc.port).read(Date.now())).rejects.toThrow(/S7|ECONNREFUSED/);
  });
});
