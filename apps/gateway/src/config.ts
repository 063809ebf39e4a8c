import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { gatewayIdSchema, snCodeSchema } from '@linewatch/contracts/mqtt';
import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import { loadPlcProfilesFile } from '@linewatch/contracts/plc-profiles-file';

const ms = z.number().int().positive();

export const simulatedMachine = z.strictObject({
  driver: z.literal('simulated'),
  sn: snCodeSchema,
  seed: z.number().int().optional(),
  ppmTarget: z.number().positive().default(60),
  faultRate: z.number().min(0).default(0.02),
  resetRate: z.number().min(0).default(0),
  timeScale: z.number().positive().default(1),
  /** A machine waiting for maintenance (demo): see SimulatedMachineOptions. */
  maintenance: z
    .strictObject({
      alarm: z.string().min(1).max(32),
      faultMinutes: z.number().positive(),
      runMinutes: z.number().positive(),
    })
    .optional(),
});

/** A PLC read over Modbus TCP with the register map of its model (contracts plc-profiles.json). */
export const modbusMachine = z.strictObject({
  driver: z.literal('modbus'),
  sn: snCodeSchema,
  plcIp: z.string().min(1),
  plcModel: z.string().refine((m) => m in plcProfiles, 'unknown PLC model'),
  /** Default: the agent's modbusPort. */
  port: z.number().int().min(1).max(65_535).optional(),
  /** The PLC's Modbus unit id (several PLCs behind one Modbus gateway). Default: the model's. */
  unitId: z.number().int().min(0).max(255).optional(),
  /** The gateway's own IPs as the phone gave them at bind time (kept for the technician). */
  iotIp: z.string().optional(),
});

const machine = z.discriminatedUnion('driver', [simulatedMachine, modbusMachine]);
export const machineConfig = machine;

const gateway = z.strictObject({
  id: gatewayIdSchema,
  password: z.string().min(1),
  bufferDir: z.string().min(1),
  /** May start empty: machines are then bound from the phone (bind/machines.ts). */
  machines: z.array(machine).max(1000).default([]),
});

const configSchema = z.strictObject({
  brokerUrl: z
    .string()
    .regex(/^(mqtts?|tcp|ssl|wss?):\/\/./, 'expected an mqtt:// or mqtts:// URL'),
  pollIntervalMs: ms.default(1000),
  heartbeatMs: ms.default(5000),
  ackTimeoutMs: ms.default(10_000),
  bufferMaxMessages: z.number().int().min(1).default(100_000),
  /** Unacknowledged messages older than this are dropped (a week by default). */
  bufferMaxAgeMs: ms.default(7 * 24 * 3_600_000),
  readingsPerMessage: z.number().int().min(1).max(500).default(500),
  keepaliveSec: z.number().int().min(1).max(65_535).default(30),
  reconnectMinMs: ms.default(1000),
  /**
   * Low on purpose: with the embedded broker the broker is down exactly as long as the server, and
   * the first attempt after it is back is when the buffered messages flow again (docs/gateways.md,
   * "Reconnecting"). A fleet of thousands behind an external broker may raise it.
   */
  reconnectMaxMs: ms.default(1500),
  /** Modbus TCP: the PLCs' port, a request's timeout, the wait before reconnecting a PLC. */
  modbusPort: z.number().int().min(1).max(65_535).default(502),
  modbusTimeoutMs: ms.default(1000),
  modbusReconnectMs: ms.default(5000),
  /** A site's PLC models (the shape of contracts plc-profiles.json); relative to the config file. */
  plcProfilesFile: z.string().min(1).optional(),
  gateways: z.array(gateway).min(1),
});

export type Config = z.infer<typeof configSchema>;
export type GatewayConfig = Config['gateways'][number];
export type MachineConfig = GatewayConfig['machines'][number];
/** Settings shared by every gateway of one process. */
export type AgentSettings = Omit<Config, 'gateways'>;

export class ConfigError extends Error {}

/** Validates a parsed config; relative bufferDirs are taken relative to `baseDir`. */
export function parseConfig(raw: unknown, baseDir = process.cwd()): Config {
  // The site's models first: the machines name them.
  const profiles = (raw as { plcProfilesFile?: unknown } | null)?.plcProfilesFile;
  if (typeof profiles === 'string' && profiles) {
    try {
      loadPlcProfilesFile(path.resolve(baseDir, profiles));
    } catch (error) {
      throw new ConfigError(`config: plcProfilesFile: ${(error as Error).message}`);
    }
  }
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const at = unknownKey === undefined ? issue.path : [...issue.path, unknownKey];
    const field = at.reduce<string>(
      (name, key) =>
        typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key),
      '',
    );
    throw new ConfigError(
      `config: ${field || '(root)'}: ${unknownKey === undefined ? issue.message : 'unknown field'}`,
    );
  }
  const config = result.data;
  if (config.reconnectMaxMs < config.reconnectMinMs) {
    throw new ConfigError('config: reconnectMaxMs: must not be below reconnectMinMs');
  }
  const seen = new Set<string>();
  const unique = (field: string, value: string) => {
    if (seen.has(value)) throw new ConfigError(`config: ${field}: duplicate ${value}`);
    seen.add(value);
  };
  config.gateways.forEach((gw, i) => {
    gw.bufferDir = path.resolve(baseDir, gw.bufferDir);
    unique(`gateways[${i}].id`, gw.id);
    unique(`gateways[${i}].bufferDir`, gw.bufferDir);
    gw.machines.forEach((m, j) => unique(`gateways[${i}].machines[${j}].sn`, m.sn));
  });
  return config;
}

export function loadConfig(file: string): Config {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`config: cannot read ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config: ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(raw, path.dirname(path.resolve(file)));
}
