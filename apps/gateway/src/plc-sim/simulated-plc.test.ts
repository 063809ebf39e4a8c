import { modbusProfiles, spanOf } from '@linewatch/contracts/plc-profiles';
import ModbusRTU from 'modbus-serial';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onCleanup, runCleanups } from '../testing.ts';
import { startSimulatedPlc, startSimulatedPlcs } from './simulated-plc.ts';

afterEach(runCleanups);

const machine = { sn: 'SN-EX-1', seed: 3, ppmTarget: 60, faultRate: 0, resetRate: 0, timeScale: 1 };

/*
 * plc-sim answers as a Modbus server does (Modbus application protocol v1.1b3, section 6 and 7):
 * an exception for what it does not serve, rather than silence (every scanner would wait its full
 * timeout) or made-up zeros. Each request is checked with a real client; a silent server fails
 * these with a timeout error, which carries no exception code.
 */
const exceptionOf = async (request: Promise<unknown>): Promise<unknown> => {
  try {
    await request;
  } catch (error) {
    return (
      (error as { modbusCode?: number; message: string }).modbusCode ?? (error as Error).message
    );
  }
  return 'answered';
};

const clientOf = async (port: number, unitId = 1) => {
  const client = new ModbusRTU();
  client.setTimeout(3000);
  await client.connectTCP('127.0.0.1', { port });
  client.setID(unitId);
  onCleanup(() => new Promise<void>((resolve) => client.close(() => resolve())));
  return client;
};

const fx5u = modbusProfiles.FX5U!;
const end = spanOf(fx5u).start + spanOf(fx5u).length;

describe('plc-sim as a Modbus server', () => {
  it('answers exception 01 for a function it does not serve, 02 past its registers, 03 for more than 125', async () => {
    const plc = await startSimulatedPlc({ host: '127.0.0.1', port: 0, profile: fx5u, machine });
    onCleanup(() => plc.close());
    const client = await clientOf(plc.port);

    expect(await exceptionOf(client.readInputRegisters(0, 1))).toBe(1);
    expect(await exceptionOf(client.readCoils(0, 8))).toBe(1);
    expect(await exceptionOf(client.writeRegister(30, 5))).toBe(1);
    expect(await exceptionOf(client.readHoldingRegisters(end, 1))).toBe(2);
    expect(await exceptionOf(client.readHoldingRegisters(end - 1, 2))).toBe(2);
    expect(await exceptionOf(client.readHoldingRegisters(0, 126))).toBe(3);
    // The map's one read still answers, and the connection is still good after the exceptions.
    const read = await client.readHoldingRegisters(0, end);
    expect(read.data).toHaveLength(end);
    expect([1, 2, 3]).toContain(read.data[fx5u.status.address]);
  });

  it('serves several PLCs behind one port by unit id, and answers 0B for a unit it does not have', async () => {
    const plcs = await startSimulatedPlcs({
      host: '127.0.0.1',
      port: 0,
      units: [
        { unitId: 1, profile: fx5u, machine: { ...machine, sn: 'U1' } },
        { unitId: 2, profile: modbusProfiles['S7-1200']!, machine: { ...machine, sn: 'U2' } },
      ],
    });
    onCleanup(() => plcs.close());
    const s7 = modbusProfiles['S7-1200']!;
    const two = await clientOf(plcs.port, 2);
    const status = await two.readHoldingRegisters(s7.status.address, 1);
    expect([1, 2, 3]).toContain(status.data[0]);
    const one = await clientOf(plcs.port, 1);
    // Unit 1 is an FX5U: its registers end long before the S7's map begins.
    expect(await exceptionOf(one.readHoldingRegisters(s7.status.address, 1))).toBe(2);
    const nine = await clientOf(plcs.port, 9);
    expect(await exceptionOf(nine.readHoldingRegisters(0, 1))).toBe(0x0b);
  });
});

describe('plc-sim seen by mbpoll (libmodbus, a client nobody here wrote)', () => {
  const run = promisify(execFile);
  const mbpoll = async (port: number, args: string[]) => {
    const { stdout, stderr } = await run(
      'mbpoll',
      ['-m', 'tcp', '-p', String(port), '-0', '-1', '-o', '3', ...args, '127.0.0.1'],
      { timeout: 15_000 },
    ).catch((error: { stdout: string; stderr: string }) => error);
    return `${stdout}\n${stderr}`;
  };

  beforeAll(() => {
    if (!fs.existsSync('/usr/bin/mbpoll'))
      throw new Error('mbpoll is missing: apt-get install -y mbpoll (.ci/run installs it)');
  });

  it('reads the map, and gets illegal function, illegal data address', async () => {
    const plc = await startSimulatedPlc({ host: '127.0.0.1', port: 0, profile: fx5u, machine });
    onCleanup(() => plc.close());
    expect(await mbpoll(plc.port, ['-a', '1', '-t', '4', '-r', '0', '-c', String(end)])).toMatch(
      new RegExp(`\\[${end - 1}\\]:\\s+\\d+`),
    );
    expect(await mbpoll(plc.port, ['-a', '1', '-t', '3', '-r', '0', '-c', '1'])).toMatch(
      /Illegal function/i,
    );
    expect(await mbpoll(plc.port, ['-a', '1', '-t', '4', '-r', String(end), '-c', '1'])).toMatch(
      /Illegal data address/i,
    );
  });
});
