import { z } from 'zod';
import data from './plc-profiles.json' with { type: 'json' };

/*
 * PLC models as Modbus register maps (holding registers, 0-based addresses). One data file read
 * by the server (the phone's model picker, a bind's model check) and by the gateway agent (its
 * Modbus driver and the simulated PLC), so a model the phone offers is one the agent can read.
 * Status holds 1 idle / 2 running / 3 fault; idle reason 1 upstream / 2 downstream / 0 none;
 * bit i of the alarm words (word 0 first, bit 0 the lowest) raises alarmCodes[i].
 */
const register = z.object({
  address: z.number().int().min(0).max(65_535),
  type: z.enum(['uint16', 'uint32']),
});

export const plcProfile = z.object({
  label: z.string().min(1),
  unitId: z.number().int().min(0).max(255),
  /** How a uint32 spans two registers: Mitsubishi and Omron put the low word first. */
  wordOrder: z.enum(['high-first', 'low-first']),
  status: register,
  idleReason: register,
  counters: z.object({
    produced: register,
    ok: register,
    ng: register,
    firstPassOk: register,
  }),
  alarmWords: z.object({ address: z.number().int().min(0), count: z.number().int().min(1).max(4) }),
  alarmCodes: z.array(z.string().min(1).max(32)).max(64),
  /** Operator setpoints: a change becomes an operation-log event. */
  setpoints: z.array(register.extend({ name: z.string().min(1).max(64) })).max(16),
});
export type PlcProfile = z.infer<typeof plcProfile>;

export const plcProfiles: Readonly<Record<string, PlcProfile>> = z
  .record(z.string(), plcProfile)
  .parse(data);

/** The word count a register of this type takes. */
export const wordsOf = (type: PlcProfile['status']['type']) => (type === 'uint32' ? 2 : 1);
