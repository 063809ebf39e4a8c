import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { gatewayIdSchema, snCodeSchema } from '@linewatch/contracts/mqtt';
import { plcProfiles, type PlcProtocol } from '@linewatch/contracts/plc-profiles';
import { loadPlcProfilesFile } from '@linewatch/contracts/plc-profiles-file';
import { OPCUA_SECURITY_MODES, OPCUA_SECURITY_POLICIES } from './drivers/opcua.ts';

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

/** A model of the contracts' plc-profiles.json read over `protocol`. */
const modelOf = (protocol: PlcProtocol) =>
  z.string().superRefine((model, ctx) => {
    const profile = plcProfiles[model];
    if (!profile) ctx.addIssue({ code: 'custom', message: 'unknown PLC model' });
    else if (profile.protocol !== protocol)
      ctx.addIssue({
        code: 'custom',
        message: `PLC model ${model} is read over ${profile.protocol}, not ${protocol}`,
      });
  });
const port = z.number().int().min(1).max(65_535);
/** What every PLC has: where it is on the network and which model it is. */
const plcMachine = {
  sn: snCodeSchema,
  plcIp: z.string().min(1),
  /** The gateway's own IPs as the phone gave them at bind time (kept for the technician). */
  iotIp: z.string().optional(),
};

/** A PLC read over Modbus TCP with the register map of its model (contracts plc-profiles.json). */
export const modbusMachine = z.strictObject({
  driver: z.literal('modbus'),
  ...plcMachine,
  plcModel: modelOf('modbus'),
  /** Default: the agent's modbusPort. */
  port: port.optional(),
  /** The PLC's Modbus unit id (several PLCs behind one Modbus gateway). Default: the model's. */
  unitId: z.number().int().min(0).max(255).optional(),
});

const keyPair = z.strictObject({
  /** PEM or DER files, relative to the config file. */
  certificateFile: z.string().min(1),
  privateKeyFile: z.string().min(1),
});

/** A PLC (or a SCADA server in front of it) read over OPC UA at its profile's node ids. */
const opcuaMachine = z.strictObject({
  driver: z.literal('opcua'),
  ...plcMachine,
  plcModel: modelOf('opcua'),
  /** Default: the profile's (4840). The endpoint is opc.tcp://plcIp:port plus the profile's path. */
  port: port.optional(),
  securityMode: z.enum(OPCUA_SECURITY_MODES).default('None'),
  securityPolicy: z.enum(OPCUA_SECURITY_POLICIES).default('None'),
  /** Signs in with a user name and password; anonymous without. */
  user: z.strictObject({ userName: z.string().min(1), password: z.string() }).optional(),
  /** The agent's application certificate; without it one is made in bufferDir/opcua-pki. */
  certificate: keyPair.optional(),
  /** false: one Read request a poll instead of monitored items. */
  subscribe: z.boolean().default(true),
});

/** A Siemens S7 PLC read over S7comm (ISO-on-TCP) at its profile's data block addresses. */
const s7Machine = z.strictObject({
  driver: z.literal('s7'),
  ...plcMachine,
  plcModel: modelOf('s7'),
  /** Defaults: the profile's (102, rack 0, slot 1 for an S7-1200). */
  port: port.optional(),
  rack: z.number().int().min(0).max(7).optional(),
  slot: z.number().int().min(0).max(31).optional(),
});

const machine = z.discriminatedUnion('driver', [
  simulatedMachine,
  modbusMachine,
  opcuaMachine,
  s7Machine,
]);
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
  /** OPC UA: a request's timeout, the longest wait between reconnection attempts, the rate the server publishes changes at. */
  opcuaTimeoutMs: ms.default(5000),
  opcuaReconnectMs: ms.default(5000),
  opcuaPublishingIntervalMs: ms.default(500),
  /** S7: a request's timeout, the wait before reconnecting a PLC. */
  s7TimeoutMs: ms.default(1500),
  s7ReconnectMs: ms.default(5000),
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
    gw.machines.forEach((m, j) => {
      unique(`gateways[${i}].machines[${j}].sn`, m.sn);
      if (m.driver === 'opcua' && m.certificate) {
        m.certificate.certificateFile = path.resolve(baseDir, m.certificate.certificateFile);
        m.certificate.privateKeyFile = path.resolve(baseDir, m.certificate.privateKeyFile);
      }
    });
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
