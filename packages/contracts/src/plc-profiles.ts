import { z } from 'zod';
import data from './plc-profiles.json' with { type: 'json' };

/*
 * PLC models and how to read the same figures from each: status (1 idle / 2 running / 3 fault),
 * idle reason (1 upstream / 2 downstream / 0 none), the four counters, alarm bits and operator
 * setpoints. One data file read by the server (the phone's model picker, a bind's model check)
 * and by the gateway agent (its drivers and the simulated PLCs), so a model the phone offers is
 * one the agent can read. A profile names its protocol (a profile without one is Modbus):
 * - modbus: holding registers, 0-based addresses; bit i of the alarm words (word 0 first, bit 0
 *   the lowest) raises alarmCodes[i].
 * - opcua: a node id per figure (no browsing); each alarm a Boolean node.
 * - s7: an address in a data block per figure (S7comm over ISO-on-TCP); each alarm a bit.
 */
const register = z.object({
  address: z.number().int().min(0).max(65_535),
  type: z.enum(['uint16', 'uint32']),
});

const label = z.string().min(1);
const alarmCode = z.string().min(1).max(32);
const setpointName = z.string().min(1).max(64);
const port = z.number().int().min(1).max(65_535);

const modbusProfile = z.object({
  protocol: z.literal('modbus'),
  label,
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
  alarmCodes: z.array(alarmCode).max(64),
  /** Operator setpoints: a change becomes an operation-log event. */
  setpoints: z.array(register.extend({ name: setpointName })).max(16),
});

/**
 * An OPC UA node id in its string form: `ns=<index>;` (0 when left out) then `i=` numeric,
 * `s=` string, `g=` GUID or `b=` opaque (base64).
 */
export const opcuaNodeId = z
  .string()
  .regex(
    /^(?:ns=\d{1,5};)?(?:i=\d{1,10}|s=.{1,4096}|g=[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|b=[A-Za-z0-9+/]+={0,2})$/,
    'expected an OPC UA node id such as ns=2;s=Line1.Status',
  );

const opcuaProfile = z.object({
  protocol: z.literal('opcua'),
  label,
  /** The server's port when a machine names only the PLC's address (a bind from the phone). */
  port: port.default(4840),
  /** The endpoint URL's path after host:port, e.g. `/freeopcua/server/` (most servers: none). */
  endpointPath: z
    .string()
    .regex(/^(?:\/[\w\-./]*)?$/, 'expected a path starting with /')
    .default(''),
  status: opcuaNodeId,
  idleReason: opcuaNodeId,
  counters: z.object({
    produced: opcuaNodeId,
    ok: opcuaNodeId,
    ng: opcuaNodeId,
    firstPassOk: opcuaNodeId,
  }),
  /** Boolean nodes, true while the alarm is active. */
  alarms: z.array(z.object({ code: alarmCode, nodeId: opcuaNodeId })).max(64),
  setpoints: z.array(z.object({ name: setpointName, nodeId: opcuaNodeId })).max(16),
});

/*
 * Data block addresses as nodes7 writes them: DB1,INT0 is DB1.DBW0 read as a signed INT in
 * STEP 7, DB1,DINT4 is DB1.DBD4, DB1,X20.0 is DB1.DBX20.0.
 */
const s7Address = (types: string, example: string) =>
  z
    .string()
    .regex(
      new RegExp(
        `^DB[1-9]\\d{0,4},(?:${types})(?:0|[1-9]\\d{0,5})${types === 'X' ? '\\.[0-7]' : ''}$`,
      ),
      `expected a data block address such as ${example}`,
    );
/** A whole number: status, idle reason, counters and setpoints. */
const s7Number = s7Address('BYTE|INT|WORD|DINT|DWORD', 'DB1,INT0 or DB1,DINT2');
const s7Bit = s7Address('X', 'DB1,X20.0');

const s7Profile = z.object({
  protocol: z.literal('s7'),
  label,
  /** ISO-on-TCP. */
  port: port.default(102),
  /** S7-1200/1500: rack 0, slot 1; S7-300: slot 2. A machine's config may say otherwise. */
  rack: z.number().int().min(0).max(7).default(0),
  slot: z.number().int().min(0).max(31).default(1),
  status: s7Number,
  idleReason: s7Number,
  counters: z.object({ produced: s7Number, ok: s7Number, ng: s7Number, firstPassOk: s7Number }),
  alarms: z.array(z.object({ code: alarmCode, address: s7Bit })).max(64),
  setpoints: z.array(z.object({ name: setpointName, address: s7Number })).max(16),
});

export const plcProfile = z.preprocess(
  // The Modbus profiles came first and name no protocol.
  (raw) =>
    typeof raw === 'object' && raw !== null && !('protocol' in raw)
      ? { ...raw, protocol: 'modbus' }
      : raw,
  z.discriminatedUnion('protocol', [modbusProfile, opcuaProfile, s7Profile]),
);
export type PlcProfile = z.infer<typeof plcProfile>;
export type PlcProtocol = PlcProfile['protocol'];
export type ModbusProfile = Extract<PlcProfile, { protocol: 'modbus' }>;
export type OpcuaProfile = Extract<PlcProfile, { protocol: 'opcua' }>;
export type S7Profile = Extract<PlcProfile, { protocol: 's7' }>;

export const plcProfiles: Readonly<Record<string, PlcProfile>> = z
  .record(z.string(), plcProfile)
  .parse(data);

const ofProtocol = <P extends PlcProtocol>(protocol: P) =>
  Object.fromEntries(
    Object.entries(plcProfiles).filter(([, profile]) => profile.protocol === protocol),
  ) as Readonly<Record<string, Extract<PlcProfile, { protocol: P }>>>;

/** The models of each protocol, by model name. */
export const modbusProfiles = ofProtocol('modbus');
export const opcuaProfiles = ofProtocol('opcua');
export const s7Profiles = ofProtocol('s7');

/** The word count a register of this type takes. */
export const wordsOf = (type: ModbusProfile['status']['type']) => (type === 'uint32' ? 2 : 1);
