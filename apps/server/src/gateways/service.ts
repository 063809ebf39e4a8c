import { messages, ReplyCode } from '@linewatch/contracts/envelope';
import { gatewayMessages } from '@linewatch/contracts/gateway-labels';
import {
  bindMessage,
  unbindMessage,
  type registerGatewayBody,
  type GatewayCredential,
  type MaintenanceReply,
} from '@linewatch/contracts/gateways';
import { plcProfiles } from '@linewatch/contracts/plc-profiles';
import type { GatewayCommandBody } from '@linewatch/contracts/gateway-commands';
import type { z } from 'zod';
import type { DeviceInfo } from '../core/machine.ts';
import type { MachineCheck } from '../plugins/visibility.ts';
import type { SessionUser } from '../plugins/auth.ts';
import { DomainError, refused } from '../foundation/http/envelope.ts';
import { hashSecret } from '../foundation/shared/secrets.ts';
import { GatewayNoReplyError, type GatewayCommands } from './commands.ts';
import { newGatewaySecret } from '../core/gateway-credentials.ts';
import type { GatewayPresence } from '../core/gateway-presence.ts';
import type { MachinesService } from '../machines/service.ts';
import { gatewayAudit } from './audit.ts';
import type { Gateway, GatewayBinding, GatewaysRepository } from './repository.ts';

/** A gateway as the registry shows it: online and last heard as this instance knows them. */
export interface GatewayStatus extends Gateway {
  machines: GatewayBinding[];
}

/** Who asked: a signed-in user on the phone, or the admin CLI (userId null). */
export interface Actor {
  userId: number | null;
  name: string;
}

export const maintenanceContent = {
  bound: '绑定成功',
  unbound: '解绑成功',
  unknownGateway: (serial: string) => `网关${serial}未登记，请联系管理员`,
  unknownMachine: (sn: string) => `机台${sn}不存在，请先登记机台`,
  boundElsewhere: (other: string) => `机台已绑定网关${other}，请先解绑`,
  notBoundHere: '机台未绑定到该网关',
  noReply: '网关无响应，请检查网关是否在线',
  unknownModel: '不支持的PLC型号',
  serialMismatch: gatewayMessages.badSerial,
} as const;

export const gatewayAdminMessages = {
  exists: '网关已登记',
  unknown: '网关不存在',
} as const;

interface GatewaysDeps {
  repo: GatewaysRepository;
  commands: Pick<GatewayCommands, 'send'>;
  presence: Pick<GatewayPresence, 'isOnline' | 'lastHeard' | 'register'>;
  /** Visibility (devices service), read at call time: devices registers after gateways. */
  checkMachine: (user: SessionUser, sn: string) => Promise<MachineCheck>;
  /** Machines' service stores a binding (and reloads the registry ingest and the lists read). */
  machines: Pick<MachinesService, 'setBinding'>;
  /** A new gateway: ingest and presence accept it from its first message. */
  onGatewayAdded: (gatewayId: string) => void;
  /** A rotated credential: the gateway's MQTT session (signed in with the old one) is ended. */
  endSession: (gatewayId: string) => void;
}

type Result = Pick<MaintenanceReply, 'Code' | 'Content'>;
const result = (Code: number, Content: string): Result => ({ Code, Content });

/** Code 400 with the first message; an IP clash is a 409 (docs/design.md section 6). */
const invalid = (error: z.ZodError): Result => {
  const first = error.issues[0]?.message ?? gatewayMessages.incomplete;
  return result(first === gatewayMessages.ipClash ? 409 : 400, first);
};

/**
 * Bind and unbind (the maintenance socket) and the gateway registry. A bind is stored only once
 * the gateway confirmed it polls the PLC, so the database never names a binding the gateway
 * does not have; the command itself is idempotent on the agent, so a retry after a 504 is safe.
 */
export const createGatewaysService = (deps: GatewaysDeps) => {
  const { repo } = deps;

  /** The checks both commands share: the path names the gateway the message names, both exist, the user sees the machine. */
  const locate = async (
    user: SessionUser,
    serial: string,
    iotId: string,
    sn: string,
  ): Promise<Result | DeviceInfo> => {
    if (iotId !== serial) return result(400, maintenanceContent.serialMismatch);
    if (!(await repo.gatewayExists(serial)))
      return result(404, maintenanceContent.unknownGateway(serial));
    const check = await deps.checkMachine(user, sn);
    if (!check.ok)
      return check.reason === 'unknown'
        ? result(404, maintenanceContent.unknownMachine(sn))
        : result(403, messages.forbidden);
    return check.device;
  };

  const relay = async (serial: string, command: GatewayCommandBody): Promise<Result | null> => {
    try {
      const reply = await deps.commands.send(serial, command);
      return reply.code === 200 ? null : result(reply.code, reply.content);
    } catch (error) {
      if (error instanceof GatewayNoReplyError) return result(504, maintenanceContent.noReply);
      throw error;
    }
  };

  const isResult = (value: Result | DeviceInfo): value is Result => 'Code' in value;

  return {
    async bind(user: SessionUser, serial: string, raw: unknown): Promise<Result> {
      const parsed = bindMessage.safeParse(raw);
      if (!parsed.success) return invalid(parsed.error);
      const message = parsed.data;
      const found = await locate(user, serial, message.iotId, message.snCode);
      if (isResult(found)) return found;
      const profile = plcProfiles[message.plcModel];
      if (!profile) return result(400, maintenanceContent.unknownModel);
      if (found.gatewayId !== null && found.gatewayId !== serial)
        return result(409, maintenanceContent.boundElsewhere(found.gatewayId));
      const plc = {
        plcIp: message.plcIp,
        plcPort: message.plcPort,
        // OPC UA and S7: one PLC an address and port; the unit id is Modbus's.
        unitId: profile.protocol === 'modbus' ? (message.unitId ?? profile.unitId) : 0,
      };
      const taken = await repo.findPlcUser(serial, plc, message.snCode);
      if (taken)
        return result(
          409,
          gatewayMessages.plcTaken(plc.plcIp, plc.plcPort, plc.unitId, taken.sn_code),
        );

      const refused = await relay(serial, {
        type: 'bind',
        snCode: message.snCode,
        ...plc,
        iotIp: message.iotIp,
        plcModel: message.plcModel,
      });
      if (refused) return refused;
      await deps.machines.setBinding(
        message.snCode,
        { gatewayId: serial, ...plc, plcModel: message.plcModel },
        gatewayAudit({
          userId: user.userId,
          userName: user.name,
          action: 'bind',
          gatewayId: serial,
          snCode: message.snCode,
          binding: { ...plc, plcModel: message.plcModel, iotIp: message.iotIp },
        }),
      );
      return result(200, maintenanceContent.bound);
    },

    async unbind(user: SessionUser, serial: string, raw: unknown): Promise<Result> {
      const parsed = unbindMessage.safeParse(raw);
      if (!parsed.success) return invalid(parsed.error);
      const { snCode, iotId } = parsed.data;
      const found = await locate(user, serial, iotId, snCode);
      if (isResult(found)) return found;
      if (found.gatewayId !== serial) return result(409, maintenanceContent.notBoundHere);
      const refused = await relay(serial, { type: 'unbind', snCode });
      if (refused) return refused;
      await deps.machines.setBinding(
        snCode,
        null,
        gatewayAudit({
          userId: user.userId,
          userName: user.name,
          action: 'unbind',
          gatewayId: serial,
          snCode,
        }),
      );
      return result(200, maintenanceContent.unbound);
    },

    async list(): Promise<GatewayStatus[]> {
      const [gateways, bindings] = await Promise.all([repo.listGateways(), repo.listBindings()]);
      return gateways.map((g) => {
        const heard = deps.presence.lastHeard(g.serial);
        return {
          ...g,
          online: deps.presence.isOnline(g.serial),
          lastSeenAt: heard === undefined ? g.lastSeenAt : new Date(heard),
          machines: bindings.filter((b) => b.gatewayId === g.serial),
        };
      });
    },

    async register(actor: Actor, input: z.output<typeof registerGatewayBody>) {
      const credential = await registerGateway(repo, actor, input);
      deps.onGatewayAdded(credential.serial);
      return credential;
    },

    async rotate(actor: Actor, serial: string) {
      const credential = await rotateGateway(repo, actor, serial);
      deps.endSession(serial);
      return credential;
    },
  };
};

export type GatewaysService = ReturnType<typeof createGatewaysService>;

/**
 * Registers a gateway (`input` passed registerGatewayBody: the route's schema, the CLI's parse)
 * and returns its credential, whose secret is stored only as a hash.
 */
export const registerGateway = async (
  repo: Pick<GatewaysRepository, 'gatewayExists' | 'insertGateway'>,
  actor: Actor,
  { serial, name = '' }: z.output<typeof registerGatewayBody>,
): Promise<GatewayCredential> => {
  if (await repo.gatewayExists(serial)) throw refused(gatewayAdminMessages.exists);
  const secret = newGatewaySecret();
  await repo.insertGateway(serial, name, await hashSecret(secret), {
    userId: actor.userId,
    userName: actor.name,
    action: 'register',
    gatewayId: serial,
  });
  return { serial, secret };
};

/** A new secret; the old one stops working at the gateway's next sign-in. */
export const rotateGateway = async (
  repo: Pick<GatewaysRepository, 'replaceSecret'>,
  actor: Actor,
  serial: string,
): Promise<GatewayCredential> => {
  const secret = newGatewaySecret();
  const replaced = await repo.replaceSecret(serial, await hashSecret(secret), {
    userId: actor.userId,
    userName: actor.name,
    action: 'rotate',
    gatewayId: serial,
  });
  if (!replaced) throw new DomainError(ReplyCode.notFound, gatewayAdminMessages.unknown);
  return { serial, secret };
};
