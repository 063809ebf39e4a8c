import { modbusProfiles, spanOf } from '@linewatch/contracts/plc-profiles';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedPlc } from '../plc-sim/simulated-plc.ts';
import { onCleanup, runCleanups } from '../testing.ts';
import { ModbusDriver } from './modbus.ts';
import type { PlcImage } from './figures.ts';
import { decode, encode } from './register-map.ts';
import { SimulatedDriver } from './simulated.ts';

afterEach(runCleanups);

const machine = {
  sn: 'SN-MB-1',
  seed: 7,
  ppmTarget: 60,
  faultRate: 0.02,
  resetRate: 0,
  timeScale: 1,
};

const plcOf = async (model: string, port = 0) => {
  const plc = await startSimulatedPlc({
    host: '127.0.0.1',
    port,
    profile: modbusProfiles[model]!,
    machine,
  });
  onCleanup(() => plc.close());
  return plc;
};

const driverOf = (model: string, port: number) => {
  const driver = new ModbusDriver({
    sn: machine.sn,
    host: '127.0.0.1',
    port,
    unitId: modbusProfiles[model]!.unitId,
    profile: modbusProfiles[model]!,
    timeoutMs: 500,
    reconnectMs: 50,
  });
  onCleanup(() => driver.close());
  return driver;
};

describe('register maps', () => {
  it('round-trips every model, 32-bit counters in either word order, alarm bits', () => {
    const image: PlcImage = {
      status: 1,
      idleReason: 'downstream',
      counters: { produced: 123_456_789, ok: 70_000, ng: 65_536, firstPassOk: 65_535 },
      activeAlarms: ['E205', 'E518'],
      setpoints: [100, 185, 600],
    };
    for (const profile of Object.values(modbusProfiles)) {
      const { start, length } = spanOf(profile);
      const words = new Array<number>(length).fill(0);
      encode(profile, image, start, words);
      expect(decode(profile, start, words)).toEqual(image);
    }
  });

  it('refuses a status register outside 1–3', () => {
    const profile = modbusProfiles.FX5U!;
    const { start, length } = spanOf(profile);
    expect(() => decode(profile, start, new Array<number>(length).fill(0))).toThrow(/status/);
  });
});

describe('the Modbus TCP driver against the simulated PLC', () => {
  it('reads what the simulated machine holds, through real Modbus reads', async () => {
    for (const model of ['FX5U', 'S7-1200']) {
      const plc = await plcOf(model);
      const reading = await driverOf(model, plc.port).read(Date.now());
      // The same machine, simulated beside it, holds the same figures at its start.
      const twin = await new SimulatedDriver(machine).read(Date.now());
      expect(reading.status).toBe(twin.status);
      expect(reading.counters.produced).toBeGreaterThanOrEqual(twin.counters.produced - 5);
      expect(reading.params).toEqual(twin.params);
    }
  });

  it('fails the read of a PLC that stops answering, and reconnects once it is back', async () => {
    const plc = await plcOf('FX5U');
    const driver = driverOf('FX5U', plc.port);
    await driver.read(Date.now());
    await plc.close();
    await expect(driver.read(Date.now())).rejects.toThrow();
    await plcOf('FX5U', plc.port);
    let reading;
    for (let attempt = 0; attempt < 100 && !reading; attempt++) {
      reading = await driver.read(Date.now()).catch(() => undefined);
      if (!reading) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reading?.counters.produced).toBeGreaterThan(0);
  });
});
