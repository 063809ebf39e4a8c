import type { OperationEvent } from '@linewatch/contracts/mqtt';
import {
  isMachineState,
  MACHINE_STATE,
  type MachineState,
} from '@linewatch/contracts/rules/machine-states';
import type { DriverReading } from './driver.ts';

/** What a PLC holds, in the agent's terms, whatever the protocol it was read over. */
export interface PlcImage {
  status: MachineState;
  idleReason?: 'upstream' | 'downstream' | undefined;
  counters: { produced: number; ok: number; ng: number; firstPassOk: number };
  /** Codes of the active alarms (those the profile knows). */
  activeAlarms: string[];
  /** In profile order. */
  setpoints: number[];
}

/** The figures as numbers, as every protocol's profile defines them (plc-profiles.ts). */
export interface RawFigures {
  status: number;
  /** 1 upstream, 2 downstream, anything else none. */
  idleReason: number;
  counters: PlcImage['counters'];
  activeAlarms: string[];
  setpoints: number[];
}

/**
 * A profile that names each figure by an address in the PLC (an OPC UA node id, an S7 data block
 * address): the protocol's field for an alarm's or a setpoint's address is `key`.
 */
export interface AddressedProfile<K extends string> {
  status: string;
  idleReason: string;
  counters: Record<keyof PlcImage['counters'], string>;
  alarms: readonly ({ code: string } & Record<K, string>)[];
  setpoints: readonly Record<K, string>[];
}

/** Every address a profile reads, once each (status, idle reason, counters, alarms, setpoints). */
export const addressesOf = <K extends string>(profile: AddressedProfile<K>, key: K): string[] => [
  ...new Set([
    profile.status,
    profile.idleReason,
    profile.counters.produced,
    profile.counters.ok,
    profile.counters.ng,
    profile.counters.firstPassOk,
    ...profile.alarms.map((a) => a[key]),
    ...profile.setpoints.map((s) => s[key]),
  ]),
];

/** The raw figures of a profile, each read by `number` at its address. */
export const rawFiguresOf = <K extends string>(
  profile: AddressedProfile<K>,
  key: K,
  number: (address: string) => number,
): RawFigures => ({
  status: number(profile.status),
  idleReason: number(profile.idleReason),
  counters: {
    produced: number(profile.counters.produced),
    ok: number(profile.counters.ok),
    ng: number(profile.counters.ng),
    firstPassOk: number(profile.counters.firstPassOk),
  },
  activeAlarms: profile.alarms.filter((a) => number(a[key]) !== 0).map((a) => a.code),
  setpoints: profile.setpoints.map((s) => number(s[key])),
});

const IDLE_REASONS = { 1: 'upstream', 2: 'downstream' } as const;
export const IDLE_CODES = { upstream: 1, downstream: 2 } as const;

/** Raw figures → image; a status other than 1, 2 or 3 is a misread, never a reading. */
export const imageOf = (raw: RawFigures): PlcImage => {
  const { status } = raw;
  if (!isMachineState(status)) throw new Error(`status holds ${status}, expected 1, 2 or 3`);
  return {
    status,
    idleReason: status === MACHINE_STATE.idle ? IDLE_REASONS[raw.idleReason as 1 | 2] : undefined,
    counters: raw.counters,
    activeAlarms: raw.activeAlarms,
    setpoints: raw.setpoints,
  };
};

/**
 * Images of one machine → readings, and the operation events its setpoint changes make (an
 * operator changed a setpoint on the machine: it goes into the operation log).
 */
export class ReadingMaker {
  #setpoints: number[] | null = null;
  #events: OperationEvent[] = [];

  constructor(
    private readonly sn: string,
    private readonly setpointNames: readonly string[],
  ) {}

  reading(now: number, image: PlcImage): DriverReading {
    this.#noteSetpoints(now, image.setpoints);
    return {
      status: image.status,
      ...(image.idleReason && { idleReason: image.idleReason }),
      counters: image.counters,
      alarms: image.activeAlarms.map((code) => ({ code, active: true })),
      params: Object.fromEntries(this.setpointNames.map((name, i) => [name, image.setpoints[i]!])),
    };
  }

  takeEvents(): OperationEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #noteSetpoints(ts: number, values: number[]) {
    const previous = this.#setpoints;
    this.#setpoints = values;
    if (!previous) return;
    this.setpointNames.forEach((name, i) => {
      if (previous[i] === values[i]) return;
      this.#events.push({
        type: 'operation',
        sn: this.sn,
        ts,
        comment: `修改${name}`,
        setValue: String(values[i]),
        user: 'PLC',
      });
    });
  }
}
