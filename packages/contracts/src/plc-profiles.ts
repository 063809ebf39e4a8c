import { z } from 'zod';
import data from './plc-profiles.json' with { type: 'json' };

/*
 * PLC models as Modbus register maps (holding registers, 0-based addresses). The built-in ones are
 * plc-profiles.json; a site adds its own with a file of the same shape (addPlcProfiles: the
 * server's PLC_PROFILES_FILE, the agent's `plcProfilesFile`, plc-sim's --profiles). Read by the
 * server (the phone's model picker, a bind's model check) and by the gateway agent (its Modbus
 * driver and the simulated PLC), so a model the phone offers is one the agent can read.
 * Status holds 1 idle / 2 running / 3 fault; idle reason 1 upstream / 2 downstream / 0 none;
 * bit i of the alarm words (word 0 first, bit 0 the lowest) raises alarmCodes[i]. Every register
 * lies in one span of at most 125 words: the agent reads a PLC with one request a poll.
 */
const register = z.object({
  address: z.number().int().min(0).max(65_535),
  type: z.enum(['uint16', 'uint32']),
});

const profileShape = z.object({
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
export type PlcProfile = z.infer<typeof profileShape>;

/** The word count a register of this type takes. */
export const wordsOf = (type: PlcProfile['status']['type']) => (type === 'uint32' ? 2 : 1);

/** Modbus's most holding registers in one read (function code 3). */
export const MAX_READ_WORDS = 125;

/** The one block of holding registers that covers every register of a profile (one read a poll). */
export const spanOf = (profile: PlcProfile): { start: number; length: number } => {
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

export const plcProfile = profileShape.superRefine((profile, ctx) => {
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

/** A model name: it travels in the bind message and the agent's config. */
const modelName = z
  .string()
  .regex(/^[A-Za-z0-9._ -]{1,64}$/, 'a model name is 1 to 64 letters, digits, . _ - or spaces');
const profileSet = z.record(modelName, plcProfile);

const builtIn = profileSet.parse(data);

/** Every model this process knows: the built-in ones, then a site's (addPlcProfiles). */
export const plcProfiles: Readonly<Record<string, PlcProfile>> = { ...builtIn };

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
  return added.map(([name]) => name);
};
