import { unboundAdvice, type GatewayCommand } from '@linewatch/contracts/gateway-commands';
import { gatewayMessages } from '@linewatch/contracts/gateway-labels';
import {
  defaultPlcPort,
  modbusProfiles,
  opcuaProfiles,
  plcProfiles,
  s7Profiles,
} from '@linewatch/contracts/plc-profiles';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { MachineBindings } from '../commands.ts';
import { machineConfig, type AgentSettings, type MachineConfig } from '../config.ts';
import type { MachineDriver } from '../drivers/driver.ts';
import { ModbusDriver } from '../drivers/modbus.ts';
import { OpcuaDriver } from '../drivers/opcua.ts';
import { S7Driver } from '../drivers/s7.ts';
import { SimulatedDriver } from '../drivers/simulated.ts';
import type { Logger } from '../link/mqtt-link.ts';

type BindCommand = Extract<GatewayCommand, { type: 'bind' }>;

/**
 * What the phone changed, version 2: the machines it bound and the configured ones it unbound. The
 * config file's other machines are read from the config file at every start, at the address it
 * gives then (the demo's simulated PLCs change ports across restarts). Version 1 kept the whole
 * list, which then won over the config file for good: a configured machine kept its old address.
 */
const savedChanges = z.object({
  version: z.literal(2),
  bound: z.array(machineConfig),
  unbound: z.array(z.string()),
});
const savedList = z.object({ version: z.literal(1), machines: z.array(machineConfig) });
type SavedChanges = z.infer<typeof savedChanges>;

export const bindMessages = {
  bound: '绑定成功',
  unbound: '解绑成功',
  unknownModel: '网关不支持此PLC型号',
  ipClash: '网关IP不能与机台IP相同',
} as const;

/**
 * The machines one gateway polls and their drivers. Bind and unbind change the list at once (the
 * next poll reads the new PLC) and persist the change to `machines.json` in the buffer directory
 * before answering, so a restarted agent polls what it last confirmed: the config file's
 * `machines` (at the address the config file gives now), less those unbound from the phone, plus
 * those bound from the phone (which win over a configured machine of the same SN).
 */
export class Machines implements MachineBindings {
  readonly #file: string;
  #configs: MachineConfig[];
  #changes: SavedChanges;
  #drivers = new Map<string, MachineDriver>();
  /** Machines the server said are not bound here, already logged (once each, until bound). */
  readonly #toldUnbound = new Set<string>();

  constructor(
    private readonly options: {
      /** This gateway's id, for what the log says. */
      gatewayId: string;
      bufferDir: string;
      configured: MachineConfig[];
      settings: AgentSettings;
      log: Logger;
      /** A driver is being removed: resolves once no poll uses it any more. */
      quiesce: () => Promise<void>;
      /** The list changed (the agent republishes its state). */
      onChange: () => void;
    },
  ) {
    this.#file = path.join(options.bufferDir, 'machines.json');
    this.#changes = this.#load();
    const bound = new Set(this.#changes.bound.map((m) => m.sn));
    const unbound = new Set(this.#changes.unbound);
    this.#configs = [
      ...options.configured.filter((m) => !bound.has(m.sn) && !unbound.has(m.sn)),
      ...this.#changes.bound,
    ];
    for (const config of this.#configs) this.#drivers.set(config.sn, this.#driverOf(config));
  }

  /** The drivers to read this poll. */
  drivers(): MachineDriver[] {
    return [...this.#drivers.values()];
  }

  sns(): string[] {
    return [...this.#drivers.keys()];
  }

  /** The machines polled and where: each one's connection as configured or bound. */
  configs(): readonly MachineConfig[] {
    return this.#configs;
  }

  async bind(command: BindCommand) {
    const profile = plcProfiles[command.plcModel];
    if (!profile) return { code: 400, content: bindMessages.unknownModel };
    if (command.iotIp.split(',').some((ip) => ip.trim() === command.plcIp))
      return { code: 409, content: bindMessages.ipClash };
    // A PLC is an IP, a port and (Modbus) a unit id; a server older than port and unit id sends
    // neither.
    const modbus = profile.protocol === 'modbus';
    const port = command.plcPort ?? (modbus ? this.options.settings.modbusPort : profile.port);
    const unitId = modbus ? (command.unitId ?? profile.unitId) : 0;
    const taken = this.#configs.find(
      (m) =>
        m.driver !== 'simulated' &&
        m.sn !== command.snCode &&
        m.plcIp === command.plcIp &&
        this.#portOf(m) === port &&
        this.#unitIdOf(m) === unitId,
    );
    if (taken)
      return {
        code: 409,
        content: gatewayMessages.plcTaken(command.plcIp, port, unitId, taken.sn),
      };
    // The model's protocol picks the driver; its profile gives the port when the command has none
    // (and OPC UA's path, S7's rack and slot).
    const config: MachineConfig = machineConfig.parse({
      driver: profile.protocol,
      sn: command.snCode,
      plcIp: command.plcIp,
      port,
      ...(modbus && { unitId }),
      plcModel: command.plcModel,
      iotIp: command.iotIp,
    });
    await this.#remove(command.snCode);
    this.#toldUnbound.delete(command.snCode);
    this.#configs = [...this.#configs, config];
    this.#changes = {
      version: 2,
      bound: [...this.#changes.bound.filter((m) => m.sn !== config.sn), config],
      unbound: this.#changes.unbound.filter((sn) => sn !== config.sn),
    };
    this.#save();
    this.#drivers.set(config.sn, this.#driverOf(config));
    this.options.log.info(
      `bound ${config.sn} (${command.plcModel} over ${profile.protocol} at ${command.plcIp}:${port}` +
        (profile.protocol === 'modbus' ? ` unit ${unitId})` : ')'),
    );
    this.options.onChange();
    return { code: 200, content: bindMessages.bound };
  }

  /** The server drops these machines' data: say so once each, with what to do. */
  notBound(machines: { sn: string; registered: boolean }[]) {
    for (const { sn, registered } of machines) {
      if (!this.#drivers.has(sn) || this.#toldUnbound.has(sn)) continue;
      this.#toldUnbound.add(sn);
      this.options.log.warn(unboundAdvice(this.options.gatewayId, sn, registered));
    }
  }

  /** Unbinding a machine this gateway does not poll is done already: 200 (a retried unbind). */
  async unbind(snCode: string) {
    const had = await this.#remove(snCode);
    if (had) {
      const configured = this.options.configured.some((m) => m.sn === snCode);
      this.#changes = {
        version: 2,
        bound: this.#changes.bound.filter((m) => m.sn !== snCode),
        unbound: [
          ...this.#changes.unbound.filter((sn) => sn !== snCode),
          ...(configured ? [snCode] : []),
        ],
      };
      this.#save();
      this.options.log.info(`unbound ${snCode}`);
      this.options.onChange();
    }
    return { code: 200, content: bindMessages.unbound };
  }

  async close() {
    await Promise.all([...this.#drivers.values()].map((d) => d.close()));
  }

  async #remove(sn: string): Promise<boolean> {
    const driver = this.#drivers.get(sn);
    this.#configs = this.#configs.filter((m) => m.sn !== sn);
    if (!driver) return false;
    this.#drivers.delete(sn);
    await this.options.quiesce();
    await driver.close();
    return true;
  }

  #load(): SavedChanges {
    const none: SavedChanges = { version: 2, bound: [], unbound: [] };
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.#file, 'utf8'));
    } catch (error) {
      // Never bound from the phone: the config file's machines.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return none;
      raw = null;
    }
    const changes = savedChanges.safeParse(raw);
    if (changes.success) return changes.data;
    const list = savedList.safeParse(raw);
    if (list.success) {
      // Version 1, the whole list: a configured machine in it is the config file's (its address
      // from the config file now), one missing from it was unbound, any other was bound.
      const configured = new Set(this.options.configured.map((m) => m.sn));
      const listed = new Set(list.data.machines.map((m) => m.sn));
      return {
        version: 2,
        bound: list.data.machines.filter((m) => !configured.has(m.sn)),
        unbound: [...configured].filter((sn) => !listed.has(sn)),
      };
    }
    this.options.log.warn(`${this.#file} unreadable, using the config file's machines`);
    return none;
  }

  #save() {
    fs.mkdirSync(path.dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.#changes, null, 2));
    fs.renameSync(tmp, this.#file);
  }

  #portOf(machine: Exclude<MachineConfig, { driver: 'simulated' }>) {
    if (machine.port !== undefined) return machine.port;
    return machine.driver === 'modbus'
      ? this.options.settings.modbusPort
      : defaultPlcPort(machine.plcModel);
  }

  /** Modbus: which PLC behind the address; OPC UA and S7 have one PLC an address and port (0). */
  #unitIdOf(machine: Exclude<MachineConfig, { driver: 'simulated' }>) {
    if (machine.driver !== 'modbus') return 0;
    return machine.unitId ?? modbusProfiles[machine.plcModel]!.unitId;
  }

  #driverOf(machine: MachineConfig): MachineDriver {
    const { settings, bufferDir } = this.options;
    switch (machine.driver) {
      case 'simulated':
        // Where the simulated machine keeps what a PLC would remember across restarts.
        return new SimulatedDriver({ ...machine, stateDir: path.join(bufferDir, 'plc') });
      case 'modbus':
        return new ModbusDriver({
          sn: machine.sn,
          host: machine.plcIp,
          port: this.#portOf(machine),
          unitId: this.#unitIdOf(machine),
          profile: modbusProfiles[machine.plcModel]!,
          timeoutMs: settings.modbusTimeoutMs,
          reconnectMs: settings.modbusReconnectMs,
        });
      case 'opcua': {
        const profile = opcuaProfiles[machine.plcModel]!;
        return new OpcuaDriver({
          sn: machine.sn,
          endpointUrl: `opc.tcp://${machine.plcIp}:${machine.port ?? profile.port}${profile.endpointPath}`,
          profile,
          securityMode: machine.securityMode,
          securityPolicy: machine.securityPolicy,
          user: machine.user,
          certificate: machine.certificate,
          pkiDir: path.join(bufferDir, 'opcua-pki'),
          subscribe: machine.subscribe,
          timeoutMs: settings.opcuaTimeoutMs,
          reconnectMs: settings.opcuaReconnectMs,
          publishingIntervalMs: settings.opcuaPublishingIntervalMs,
        });
      }
      case 's7': {
        const profile = s7Profiles[machine.plcModel]!;
        return new S7Driver({
          sn: machine.sn,
          host: machine.plcIp,
          port: machine.port ?? profile.port,
          rack: machine.rack ?? profile.rack,
          slot: machine.slot ?? profile.slot,
          profile,
          timeoutMs: settings.s7TimeoutMs,
          reconnectMs: settings.s7ReconnectMs,
        });
      }
    }
  }
}
