import { spanOf, type ModbusProfile, type PlcProfile } from '@linewatch/contracts/plc-profiles';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PlcImage } from '../drivers/figures.ts';
import { encode } from '../drivers/register-map.ts';
import { SimulatedDriver, type SimulatedMachineOptions } from '../drivers/simulated.ts';
import { startModbusServer } from './modbus-server.ts';

export interface SimulatedPlc {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** One PLC behind a port: what it holds now, in the figures of its profile. */
interface PlcUnit {
  /** Modbus only; default: the profile's. */
  unitId?: number | undefined;
  profile: PlcProfile;
  /** What the PLC holds now. */
  image: () => PlcImage;
}

export interface PlcServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  profile: PlcProfile;
  /** Modbus: the unit id it answers (default: the profile's). */
  unitId?: number | undefined;
  image: () => PlcImage;
  /** OPC UA: where the server keeps its certificate (default: the system's temporary folder). */
  pkiDir?: string | undefined;
  /** OPC UA: user name → password (anonymous sessions are taken too). */
  users?: Record<string, string>;
}

/**
 * A PLC on the network, speaking its profile's protocol: Modbus TCP (modbus-server.ts, with the
 * exception answers of a real one), OPC UA (node-opcua's server) or S7comm (snap7's server). The
 * agent's drivers read it exactly as they read a real PLC.
 */
export const startPlcServer = async (options: PlcServerOptions): Promise<SimulatedPlc> => {
  const { profile, host, image } = options;
  switch (profile.protocol) {
    case 'modbus':
      return startModbusPlcs(host, options.port, [{ unitId: options.unitId, profile, image }]);
    case 'opcua': {
      // node-opcua cannot say which port it took; its server takes seconds to load: only when an
      // OPC UA PLC is wanted.
      const port = options.port || (await freePort(host));
      const { startOpcuaPlc } = await import('./opcua-plc.ts');
      return startOpcuaPlc({
        host,
        port,
        profile,
        image,
        users: options.users,
        pkiDir: options.pkiDir ?? path.join(os.tmpdir(), 'linewatch-opcua-plc-pki'),
      });
    }
    case 's7': {
      // snap7 reads port 0 as "unset".
      const port = options.port || (await freePort(host));
      const { startS7Plc } = await import('./s7-plc.ts');
      return startS7Plc({ host, port, profile, image });
    }
  }
};

/**
 * Modbus PLCs behind one port, told apart by unit id (a Modbus gateway with serial PLCs behind
 * it): each unit's memory runs from address 0 to the end of its register map (below the map reads
 * 0, past it answers exception 02).
 */
const startModbusPlcs = async (
  host: string,
  port: number,
  units: PlcUnit[],
): Promise<SimulatedPlc> => {
  const memories = new Map<number, number[]>();
  const images: { profile: ModbusProfile; words: number[]; image: () => PlcImage }[] = [];
  for (const { unitId, profile, image } of units) {
    if (profile.protocol !== 'modbus')
      throw new Error(`a ${profile.protocol} PLC cannot share a Modbus port with others`);
    const id = unitId ?? profile.unitId;
    if (memories.has(id)) throw new Error(`unit id ${id} twice on port ${port}`);
    const { start, length } = spanOf(profile);
    const words = new Array<number>(start + length).fill(0);
    memories.set(id, words);
    images.push({ profile, words, image });
  }
  const server = await startModbusServer(host, port, memories, () => {
    for (const { profile, words, image } of images) encode(profile, image(), 0, words);
  });
  return { host, port: server.port, close: () => server.close() };
};

/** One simulated PLC: a machine (drivers/simulated.ts) in the figures of one model. */
export interface SimulatedUnit {
  /** Modbus only; default: the profile's. */
  unitId?: number | undefined;
  profile: PlcProfile;
  machine: Omit<SimulatedMachineOptions, 'stateDir'> & { stateDir?: string | undefined };
}

export interface SimulatedPlcsOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Several only for Modbus (units behind one port). */
  units: SimulatedUnit[];
  /** How often the machines' figures are brought up to date. */
  tickMs?: number;
  /** OPC UA: where the server keeps its certificate. */
  pkiDir?: string | undefined;
}

export type SimulatedPlcOptions = Omit<SimulatedPlcsOptions, 'units'> & SimulatedUnit;

/** PLC servers (above) holding simulated machines, brought up to date every tickMs. */
export const startSimulatedPlcs = async (options: SimulatedPlcsOptions): Promise<SimulatedPlc> => {
  const machines = options.units.map(({ unitId, profile, machine }) => {
    const driver = new SimulatedDriver({ ...machine, stateDir: machine.stateDir });
    const setpointNames = profile.setpoints.map((s) => s.name);
    const unit = { unitId, profile, driver, image: null as PlcImage | null };
    const update = async () => {
      const reading = await driver.read(Date.now());
      driver.takeEvents();
      unit.image = {
        status: reading.status,
        idleReason: reading.idleReason,
        counters: reading.counters,
        activeAlarms: reading.alarms.filter((a) => a.active).map((a) => a.code),
        setpoints: setpointNames.map((name) => Number(reading.params?.[name] ?? 0)),
      };
    };
    return { unit, update };
  });
  const update = () => Promise.all(machines.map((m) => m.update()));
  const closeMachines = () => Promise.all(machines.map((m) => m.unit.driver.close()));
  await update();
  const timer = setInterval(() => void update(), options.tickMs ?? 200);
  try {
    const units = machines.map(({ unit }) => ({
      unitId: unit.unitId,
      profile: unit.profile,
      image: () => unit.image!,
    }));
    const server =
      units.length === 1
        ? await startPlcServer({ ...options, ...units[0]! })
        : await startModbusPlcs(options.host, options.port, units);
    return {
      host: server.host,
      port: server.port,
      close: async () => {
        clearInterval(timer);
        await server.close();
        await closeMachines();
      },
    };
  } catch (error) {
    clearInterval(timer);
    await closeMachines();
    throw error;
  }
};

/** One simulated PLC on its own port. */
export const startSimulatedPlc = ({ unitId, profile, machine, ...rest }: SimulatedPlcOptions) =>
  startSimulatedPlcs({ ...rest, units: [{ unitId, profile, machine }] });

const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
