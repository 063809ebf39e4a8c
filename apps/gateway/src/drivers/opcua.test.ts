import { opcuaProfiles } from '@linewatch/contracts/plc-profiles';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlcServer, type SimulatedPlc } from '../plc-sim/simulated-plc.ts';
import { onCleanup, runCleanups } from '../testing.ts';
import type { PlcImage } from './figures.ts';
import { OpcuaDriver, type OpcuaMachineOptions } from './opcua.ts';

// Against node-opcua's own server (plc-sim/opcua-plc.ts), never a fake: variables at the node
// ids of the OPC UA profile, every security mode offered, one user with a password.
afterEach(runCleanups);

const profile = opcuaProfiles['OPCUA-LW']!;
const USERS = { linewatch: 's3cret' };

const image: PlcImage = {
  status: 1,
  idleReason: 'upstream',
  counters: { produced: 120, ok: 110, ng: 10, firstPassOk: 100 },
  activeAlarms: ['E205'],
  setpoints: [60, 180, 5],
};

// One certificate store for the file's servers and one for its clients: making a key pair is
// the slow part of a first connection.
const pki = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-opcua-test-'));
afterAll(() => fs.rmSync(pki, { recursive: true, force: true }));

const serve = async (port = 0, pkiDir = path.join(pki, 'server')): Promise<SimulatedPlc> => {
  const plc = await startPlcServer({
    host: '127.0.0.1',
    port,
    profile,
    image: () => image,
    users: USERS,
    pkiDir,
  });
  onCleanup(() => plc.close());
  return plc;
};

const driverOf = (port: number, options: Partial<OpcuaMachineOptions> = {}) => {
  const driver = new OpcuaDriver({
    sn: 'SN-UA-1',
    endpointUrl: `opc.tcp://127.0.0.1:${port}`,
    profile,
    securityMode: 'None',
    securityPolicy: 'None',
    pkiDir: path.join(pki, 'client'),
    subscribe: true,
    timeoutMs: 2000,
    reconnectMs: 200,
    publishingIntervalMs: 100,
    ...options,
  });
  onCleanup(() => driver.close());
  return driver;
};

/** Resolves with the first truthy answer of `probe`, asked again every 50 ms. */
const until = async <T>(probe: () => Promise<T | null | false>, what: string): Promise<T> => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The next reading that satisfies `ok` (the connection and first values come in the background). */
const readingWhere = (
  driver: OpcuaDriver,
  ok: (r: Awaited<ReturnType<OpcuaDriver['read']>>) => boolean,
) =>
  until(async () => {
    const reading = await driver.read(Date.now()).catch(() => null);
    return reading && ok(reading) ? reading : null;
  }, 'a reading');

describe('the OPC UA driver against node-opcua’s server', () => {
  let plc: SimulatedPlc;
  beforeAll(async () => {
    plc = await startPlcServer({
      host: '127.0.0.1',
      port: 0,
      profile,
      image: () => image,
      users: USERS,
      pkiDir: path.join(pki, 'server'),
    });
  });
  afterAll(() => plc.close());

  it('reads every figure at its node id, then each change the server pushes', async () => {
    const driver = driverOf(plc.port);
    expect(await readingWhere(driver, () => true)).toEqual({
      status: 1,
      idleReason: 'upstream',
      counters: { produced: 120, ok: 110, ng: 10, firstPassOk: 100 },
      alarms: [{ code: 'E205', active: true }],
      params: { 速度设定: 60, 温度设定: 180, 压力设定: 5 },
    });
    Object.assign(image, { status: 3, activeAlarms: ['E101', 'E518'], setpoints: [60, 185, 5] });
    image.counters = { ...image.counters, produced: 121, ok: 111 };
    const changed = await readingWhere(driver, (r) => r.status === 3 && r.alarms.length === 2);
    expect(changed).toMatchObject({
      counters: { produced: 121, ok: 111 },
      alarms: [
        { code: 'E101', active: true },
        { code: 'E518', active: true },
      ],
    });
    // The operator's new temperature setpoint is an operation event.
    expect(driver.takeEvents()).toMatchObject([{ comment: '修改温度设定', setValue: '185' }]);
  });

  it('signs and encrypts (Basic256Sha256) and signs in with a user name and password', async () => {
    const secure = { securityMode: 'SignAndEncrypt', securityPolicy: 'Basic256Sha256' } as const;
    const driver = driverOf(plc.port, {
      ...secure,
      user: { userName: 'linewatch', password: 's3cret' },
    });
    expect((await readingWhere(driver, () => true)).counters.produced).toBe(
      image.counters.produced,
    );

    // A wrong password never reads, and says why.
    const refused = driverOf(plc.port, {
      ...secure,
      user: { userName: 'linewatch', password: 'x' },
    });
    const reason = await until(
      () =>
        refused.read(Date.now()).then(
          () => null,
          (error: Error) =>
            /BadUserAccessDenied|BadIdentityToken/.test(error.message) && error.message,
        ),
      'the refusal',
    );
    expect(reason).toMatch(/^OPC UA opc\.tcp:\/\/127\.0\.0\.1:\d+: /);
  });

  it('reads with one Read request a poll where subscriptions are not wanted', async () => {
    const driver = driverOf(plc.port, { subscribe: false });
    const first = await readingWhere(driver, () => true);
    image.counters = { ...image.counters, produced: image.counters.produced + 5 };
    // No subscription: the very next read sees the change.
    expect((await driver.read(Date.now())).counters.produced).toBe(first.counters.produced + 5);
  });

  it('fails a read while the server is away and recovers its session once it is back', async () => {
    const own = await serve();
    const driver = driverOf(own.port);
    await readingWhere(driver, () => true);

    await own.close();
    await until(
      () =>
        driver.read(Date.now()).then(
          () => false,
          () => true,
        ),
      'a failed read',
    );
    image.counters = { ...image.counters, produced: 500, ok: 490 };
    await serve(own.port);
    const again = await readingWhere(driver, (r) => r.counters.produced === 500);
    expect(again.counters).toMatchObject({ produced: 500, ok: 490 });
  });
});
