import type { GatewayRow, PlcModelOption } from '@linewatch/contracts/gateways';
import { defaultPlcPort, plcProfiles } from '@linewatch/contracts/plc-profiles';
import type { GatewayStatus } from './service.ts';

/** The PLC model picker's options (docs/product.md section 7): every profile the agent reads. */
export const presentPlcModels = (): PlcModelOption[] =>
  Object.entries(plcProfiles).map(([value, profile]) => ({
    label: profile.label,
    value,
    protocol: profile.protocol,
    port: defaultPlcPort(value),
  }));

/** A gateway of the admin registry; last heard in epoch ms, null if never. */
export const presentGateway = (g: GatewayStatus): GatewayRow => ({
  serial: g.serial,
  name: g.name,
  online: g.online,
  lastSeenAt: g.lastSeenAt?.getTime() ?? null,
  agentVersion: g.agentVersion,
  machines: g.machines.map((b) => ({
    snCode: b.snCode,
    plcIp: b.plcIp,
    plcPort: b.plcPort,
    unitId: b.unitId,
    plcModel: b.plcModel,
  })),
});
