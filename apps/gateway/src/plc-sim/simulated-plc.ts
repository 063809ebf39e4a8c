import { spanOf, type PlcProfile } from '@linewatch/contracts/plc-profiles';
import { SimulatedDriver, type SimulatedMachineOptions } from '../drivers/simulated.ts';
import { encode } from '../drivers/register-map.ts';
import { startModbusServer } from './modbus-server.ts';

/** One simulated PLC: a machine in the register map of one model, at a unit id. */
export interface SimulatedUnit {
  /** Default: the profile's. */
  unitId?: number | undefined;
  profile: PlcProfile;
  machine: Omit<SimulatedMachineOptions, 'stateDir'> & { stateDir?: string | undefined };
}

export interface SimulatedPlcsOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  units: SimulatedUnit[];
  /** How often the machines' registers are brought up to date. */
  tickMs?: number;
}

export type SimulatedPlcOptions = Omit<SimulatedPlcsOptions, 'units'> & SimulatedUnit;

export interface SimulatedPlc {
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * PLCs on the network: a Modbus TCP server (modbus-server.ts) whose units each hold a simulated
 * machine (drivers/simulated.ts) in the register map of its PLC model, from address 0 to the end
 * of the map (registers below the map read 0, past it answer exception 02). Several units behind
 * one port are a Modbus gateway with serial PLCs behind it. The agent's Modbus driver reads it
 * exactly as it reads a real PLC.
 */
export const startSimulatedPlcs = async (options: SimulatedPlcsOptions): Promise<SimulatedPlc> => {
  const memories = new Map<number, number[]>();
  const units = options.units.map(({ unitId = undefined, profile, machine }) => {
    const id = unitId ?? profile.unitId;
    if (memories.has(id)) throw new Error(`unit id ${id} twice on port ${options.port}`);
    const { start, length } = spanOf(profile);
    const words = new Array<number>(start + length).fill(0);
    memories.set(id, words);
    return {
      profile,
      words,
      machine: new SimulatedDriver({ ...machine, stateDir: machine.stateDir }),
    };
  });
  const update = async () => {
    for (const { profile, words, machine } of units) {
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
        0,
        words,
      );
    }
  };
  await update();
  const timer = setInterval(() => void update(), options.tickMs ?? 200);
  const server = await startModbusServer(options.host, options.port, memories).catch(
    (error: unknown) => {
      clearInterval(timer);
      throw error;
    },
  );
  return {
    host: options.host,
    port: server.port,
    close: async () => {
      clearInterval(timer);
      await Promise.all(units.map((u) => u.machine.close()));
      await server.close();
    },
  };
};

/** One PLC on its own port. */
export const startSimulatedPlc = ({ unitId, profile, machine, ...server }: SimulatedPlcOptions) =>
  startSimulatedPlcs({ ...server, units: [{ unitId, profile, machine }] });
