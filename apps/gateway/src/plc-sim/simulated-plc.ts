import type { ModbusProfile, PlcProfile } from '@linewatch/contracts/plc-profiles';
import { ServerTCP } from 'modbus-serial';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PlcImage } from '../drivers/figures.ts';
import { encode, spanOf } from '../drivers/register-map.ts';
import { SimulatedDriver, type SimulatedMachineOptions } from '../drivers/simulated.ts';

export interface PlcServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  profile: PlcProfile;
  /** What the PLC holds now. */
  image: () => PlcImage;
  /** OPC UA: where the server keeps its certificate (default: the system's temporary folder). */
  pkiDir?: string;
  /** OPC UA: user name → password (anonymous sessions are taken too). */
  users?: Record<string, string>;
}

export interface SimulatedPlc {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A PLC on the network, speaking its profile's protocol with a real server implementation:
 * Modbus TCP (modbus-serial's ServerTCP), OPC UA (node-opcua's server) or S7comm (snap7's
 * server). The agent's drivers read it exactly as they read a real PLC.
 */
export const startPlcServer = async (options: PlcServerOptions): Promise<SimulatedPlc> => {
  // modbus-serial and snap7 read port 0 as "unset", node-opcua cannot say which it took.
  const port = options.port || (await freePort(options.host));
  const { profile, host, image } = options;
  switch (profile.protocol) {
    case 'modbus':
      return startModbusPlc(host, port, profile, image);
    case 'opcua': {
      // node-opcua's server takes seconds to load: only when an OPC UA PLC is wanted.
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
      const { startS7Plc } = await import('./s7-plc.ts');
      return startS7Plc({ host, port, profile, image });
    }
  }
};

export interface SimulatedPlcOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  profile: PlcProfile;
  machine: Omit<SimulatedMachineOptions, 'stateDir'> & { stateDir?: string };
  /** How often the machine's figures are brought up to date. */
  tickMs?: number;
  pkiDir?: string;
}

/** A PLC server (above) holding a simulated machine (drivers/simulated.ts). */
export const startSimulatedPlc = async (options: SimulatedPlcOptions): Promise<SimulatedPlc> => {
  const { profile } = options;
  const machine = new SimulatedDriver({ ...options.machine, stateDir: options.machine.stateDir });
  const setpointNames = profile.setpoints.map((s) => s.name);
  let image: PlcImage;
  const update = async () => {
    const reading = await machine.read(Date.now());
    machine.takeEvents();
    image = {
      status: reading.status,
      idleReason: reading.idleReason,
      counters: reading.counters,
      activeAlarms: reading.alarms.filter((a) => a.active).map((a) => a.code),
      setpoints: setpointNames.map((name) => Number(reading.params?.[name] ?? 0)),
    };
  };
  await update();
  const timer = setInterval(() => void update(), options.tickMs ?? 200);
  try {
    const server = await startPlcServer({ ...options, image: () => image });
    return {
      host: server.host,
      port: server.port,
      close: async () => {
        clearInterval(timer);
        await server.close();
        await machine.close();
      },
    };
  } catch (error) {
    clearInterval(timer);
    await machine.close();
    throw error;
  }
};

/** modbus-serial's ServerTCP with the register map of a Modbus profile; outside it reads 0. */
const startModbusPlc = async (
  host: string,
  port: number,
  profile: ModbusProfile,
  image: () => PlcImage,
): Promise<SimulatedPlc> => {
  const span = spanOf(profile);
  const words = new Array<number>(span.length).fill(0);
  const register = (address: number) => {
    const at = address - span.start;
    return at >= 0 && at < words.length ? words[at]! : 0;
  };
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => {
        encode(profile, image(), span.start, words);
        return register(address);
      },
      getMultipleHoldingRegisters: (address: number, length: number) => {
        encode(profile, image(), span.start, words);
        return Array.from({ length }, (_, i) => register(address + i));
      },
    },
    { host, port, unitID: profile.unitId },
  );
  await new Promise<void>((resolve, reject) => {
    server.on('initialized', () => resolve());
    server.on('serverError', reject);
  });
  return {
    host,
    port,
    close: async () => {
      // Connected agents are cut off as a powered-down PLC would cut them off.
      for (const socket of server.socks.keys()) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
