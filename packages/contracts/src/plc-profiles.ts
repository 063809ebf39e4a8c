import { z } from 'zod';
import { MODBUS_PORT } from './gateway-labels.ts';
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
 * The built-in models are plc-profiles.json; a site adds its own with a file of the same shape
 * (addPlcProfiles: the server's PLC_PROFILES_FILE, the agent's `plcProfilesFile`, plc-sim's
 * --profiles). A Modbus profile's registers lie in one span of at most 125 words: the agent reads
 * a PLC with one request a poll.
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

/** The word count a register of this type takes. */
export const wordsOf = (type: ModbusProfile['status']['type']) => (type === 'uint32' ? 2 : 1);

/** Modbus's most holding registers in one read (function code 3). */
export const MAX_READ_WORDS = 125;

/** The one block of holding registers that covers every register of a profile (one read a poll). */
export const spanOf = (
  profile: Pick<ModbusProfile, 'status' | 'idleReason' | 'counters' | 'setpoints' | 'alarmWords'>,
): { start: number; length: number } => {
  const registers = [
    profile.status,
    profile.idleReason,
    ...Object.values(profile.counters),
    ...profile.setpoints,
  ];
  let start = profile.alarmWords.address;
  let end = profile.alarmWords.address + profile.alarmWords.count;
  for (const r of registers) {
    start = Math.min(start, r.address);
    end = Math.max(end, r.address + wordsOf(r.type));
  }
  return { start, length: end - start };
};

const checkedModbusProfile = modbusProfile.superRefine((profile, ctx) => {
  const { start, length } = spanOf(profile);
  if (length > MAX_READ_WORDS)
    ctx.addIssue({
      code: 'custom',
      message: `registers ${start} to ${start + length - 1} span ${length} words; one read takes at most ${MAX_READ_WORDS}`,
    });
  if (profile.alarmCodes.length > 16 * profile.alarmWords.count)
    ctx.addIssue({
      code: 'custom',
      path: ['alarmCodes'],
      message: `${profile.alarmCodes.length} alarm codes need ${Math.ceil(profile.alarmCodes.length / 16)} alarm words, alarmWords.count is ${profile.alarmWords.count}`,
    });
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
  z.discriminatedUnion('protocol', [checkedModbusProfile, opcuaProfile, s7Profile]),
);
export type PlcProfile = z.infer<typeof plcProfile>;
export type PlcProtocol = PlcProfile['protocol'];
export type ModbusProfile = z.infer<typeof modbusProfile>;
export type OpcuaProfile = Extract<PlcProfile, { protocol: 'opcua' }>;
export type S7Profile = Extract<PlcProfile, { protocol: 's7' }>;

/** A model name: it travels in the bind message and the agent's config. */
const modelName = z
  .string()
  .regex(/^[A-Za-z0-9._ -]{1,64}$/, 'a model name is 1 to 64 letters, digits, . _ - or spaces');
const profileSet = z.record(modelName, plcProfile);

const builtIn = profileSet.parse(data);

/** Every model this process knows: the built-in ones, then a site's (addPlcProfiles). */
export const plcProfiles: Readonly<Record<string, PlcProfile>> = { ...builtIn };

/** The models of each protocol, by model name (kept in step with plcProfiles). */
export const modbusProfiles: Readonly<Record<string, ModbusProfile>> = {};
export const opcuaProfiles: Readonly<Record<string, OpcuaProfile>> = {};
export const s7Profiles: Readonly<Record<string, S7Profile>> = {};
const byProtocol = { modbus: modbusProfiles, opcua: opcuaProfiles, s7: s7Profiles } as Record<
  PlcProtocol,
  Record<string, PlcProfile>
>;
const file = (profiles: Record<string, PlcProfile>) => {
  for (const [name, profile] of Object.entries(profiles))
    byProtocol[profile.protocol][name] = profile;
};
file(builtIn);

/** The port a PLC of this model listens on unless told otherwise: its profile's, Modbus TCP's 502. */
export const defaultPlcPort = (model: string): number => {
  const profile = plcProfiles[model];
  return profile && profile.protocol !== 'modbus' ? profile.port : MODBUS_PORT;
};

export class PlcProfilesError extends Error {}

/**
 * Adds a site's models (a parsed profiles file) to plcProfiles. Throws PlcProfilesError naming
 * `source`, the model and the field for a bad one, or a name a built-in model has; adding the same
 * definition again changes nothing.
 */
export const addPlcProfiles = (raw: unknown, source: string): string[] => {
  const parsed = profileSet.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.map(String).join('.') || '(root)';
    throw new PlcProfilesError(`PLC profiles ${source}: ${at}: ${issue.message}`);
  }
  const added = Object.entries(parsed.data);
  for (const [name, profile] of added) {
    if (name in builtIn)
      throw new PlcProfilesError(
        `PLC profiles ${source}: ${name} is a built-in model: give the site's model a name of its own`,
      );
    const known = plcProfiles[name];
    if (known && JSON.stringify(known) !== JSON.stringify(profile))
      throw new PlcProfilesError(`PLC profiles ${source}: ${name} is defined twice, differently`);
  }
  Object.assign(plcProfiles, parsed.data);
  file(parsed.data);
  return added.map(([name]) => name);
};
