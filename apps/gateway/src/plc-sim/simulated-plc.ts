import type { PlcProfile } from '@linewatch/contracts/plc-profiles';
import { ServerTCP } from 'modbus-serial';
import net, { type AddressInfo } from 'node:net';
import { SimulatedDriver, type SimulatedMachineOptions } from '../drivers/simulated.ts';
import { encode, spanOf } from '../drivers/register-map.ts';

export interface SimulatedPlcOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  profile: PlcProfile;
  machine: Omit<SimulatedMachineOptions, 'stateDir'> & { stateDir?: string };
  /** How often the machine's registers are brought up to date. */
  tickMs?: number;
}

export interface SimulatedPlc {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A PLC on the network: a real Modbus TCP server whose holding registers hold a simulated
 * machine (drivers/simulated.ts) in the register map of one PLC model. The agent's Modbus driver
 * reads it exactly as it reads a real PLC. Registers outside the map read 0.
 */
export const startSimulatedPlc = async (options: SimulatedPlcOptions): Promise<SimulatedPlc> => {
  const { profile } = options;
  const machine = new SimulatedDriver({ ...options.machine, stateDir: options.machine.stateDir });
  const span = spanOf(profile);
  const words = new Array<number>(span.length).fill(0);
  const update = async () => {
    const reading = await machine.read(Date.now());
    machine.takeEvents();
    encode(
      profile,
      {
        status: reading.status,
        idleReason: reading.idleReason,
        counters: reading.counters,
        activeAlarms: reading.alarms.filter((a) => a.active).map((a) => a.code),
        setpoints: profile.setpoints.map((s) => Number(reading.params?.[s.name] ?? 0)),
      },
      span.start,
      words,
    );
  };
  await update();
  const timer = setInterval(() => void update(), options.tickMs ?? 200);

  const register = (address: number) => {
    const at = address - span.start;
    return at >= 0 && at < words.length ? words[at]! : 0;
  };
  // modbus-serial reads port 0 as "unset" (502): pick a free port first.
  const port = options.port || (await freePort(options.host));
  const server = new ServerTCP(
    {
      getHoldingRegister: (address: number) => register(address),
      getMultipleHoldingRegisters: (address: number, length: number) =>
        Array.from({ length }, (_, i) => register(address + i)),
    },
    { host: options.host, port, unitID: profile.unitId },
  );
  await new Promise<void>((resolve, reject) => {
    server.on('initialized', () => resolve());
    server.on('serverError', reject);
  });
  return {
    host: options.host,
    port,
    close: async () => {
      clearInterval(timer);
      await machine.close();
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
