import { z } from 'zod';
import { gatewayMessages, IP_EXAMPLES } from './gateway-labels.ts';
import { defaultPlcPort, type PlcProtocol } from './plc-profiles.ts';
import { GATEWAY_SERIAL_LENGTH } from './limits.ts';
import { snCode, whenMissing } from './primitives.ts';

/*
 * Bind and unbind from the phone (docs/product.md sections 3, 5, 7; docs/design.md section 6): the messages the
 * phone sends on the maintenance socket, the server's answer, and the rules with their Chinese
 * messages. The web form and the server check the same fields with the same schemas.
 */

const DOTTED_IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export const isDottedIpv4 = (value: string) => DOTTED_IPV4.test(value);

const ipField = (example: string) =>
  z
    .string(whenMissing(gatewayMessages.badIp(example)))
    .trim()
    .regex(DOTTED_IPV4, gatewayMessages.badIp(example));

const snField = snCode(gatewayMessages.snRequired);

/** Letters and digits: it becomes part of MQTT topics and of the socket path. */
const SERIAL = /^[A-Za-z0-9]+$/;

const bindSerial = z
  .string(whenMissing(gatewayMessages.serialRequired))
  .trim()
  .min(1, gatewayMessages.serialRequired)
  .max(GATEWAY_SERIAL_LENGTH, gatewayMessages.serialTooLong)
  .regex(SERIAL, gatewayMessages.badSerial);

/** A whole number typed into a text field, within [min, max]. */
const wholeField = (min: number, max: number, message: string) =>
  z
    .string(whenMissing(message))
    .trim()
    .regex(/^\d{1,5}$/, message)
    .refine((v) => Number(v) >= min && Number(v) <= max, message);

/**
 * The bind form as the phone fills it: the two gateway IPs in their own fields. The PLC's
 * connection is IP + port + unit id (Modbus TCP); IP, port and unit id together name one PLC on a
 * gateway, so two PLCs on one IP bind by port (two servers) or unit id (a Modbus gateway with
 * serial PLCs behind it).
 */
export const bindForm = z
  .object({
    snCode: snField,
    iotId: bindSerial,
    plcIp: ipField(IP_EXAMPLES.plcIp),
    plcPort: wholeField(1, 65_535, gatewayMessages.badPort),
    unitId: wholeField(0, 255, gatewayMessages.badUnitId),
    iotIp1: ipField(IP_EXAMPLES.iotIp1),
    iotIp2: ipField(IP_EXAMPLES.iotIp2),
    plcModel: z
      .string(whenMissing(gatewayMessages.plcModelRequired))
      .trim()
      .min(1, gatewayMessages.plcModelRequired)
      .max(64),
  })
  .superRefine((form, ctx) => {
    for (const field of ['iotIp1', 'iotIp2'] as const) {
      if (form[field] === form.plcIp)
        ctx.addIssue({ code: 'custom', path: [field], message: gatewayMessages.ipClash });
    }
    if (form.iotIp1 === form.iotIp2)
      ctx.addIssue({ code: 'custom', path: ['iotIp2'], message: gatewayMessages.gatewayIpsSame });
  });
export type BindForm = z.input<typeof bindForm>;

/** docs/product.md section 3, bind payload. keyId is carried for the spec; the socket's handshake is what the server trusts. */
export const bindMessage = z
  .object({
    MsgType: z.literal('bind', { error: gatewayMessages.badMessageType }),
    snCode: z.string(whenMissing(gatewayMessages.snRequired)),
    plcIp: z.string(whenMissing(gatewayMessages.badIp(IP_EXAMPLES.plcIp))),
    iotId: z.string(whenMissing(gatewayMessages.serialRequired)),
    /** The gateway's two IPs, comma-joined. */
    iotIp: z.string(whenMissing(gatewayMessages.badIp(IP_EXAMPLES.iotIp1))).max(64),
    plcModel: z.string(whenMissing(gatewayMessages.plcModelRequired)),
    /** Beyond the spec's payload: the PLC's port (default: its model's, 502 for Modbus TCP). */
    plcPort: z.union([z.number(), z.string()]).optional(),
    /** Beyond the spec's payload: the PLC's Modbus unit id (default: its model's, plc-profiles). */
    unitId: z.union([z.number(), z.string()]).optional(),
    keyId: z.string().max(256).optional(),
  })
  .transform((message, ctx) => {
    const [iotIp1 = '', iotIp2 = ''] = message.iotIp.split(',');
    const form = bindForm.safeParse({
      ...message,
      iotIp1,
      iotIp2,
      plcPort: String(message.plcPort ?? defaultPlcPort(message.plcModel)),
      // Checked only when given: left out, the model's unit id applies (the server knows it).
      unitId: String(message.unitId ?? 0),
    });
    if (!form.success) {
      for (const issue of form.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
      return z.NEVER;
    }
    const { iotIp1: a, iotIp2: b, plcPort, unitId, ...rest } = form.data;
    return {
      ...rest,
      plcPort: Number(plcPort),
      unitId: message.unitId === undefined ? undefined : Number(unitId),
      iotIp: `${a},${b}`,
    };
  });
export type BindMessage = z.input<typeof bindMessage>;

/** docs/product.md section 5: both required, and the serial exactly 12 characters. */
export const unbindForm = z
  .object({
    snCode: z
      .string(whenMissing(gatewayMessages.incomplete))
      .trim()
      .min(1, gatewayMessages.incomplete),
    iotId: z
      .string(whenMissing(gatewayMessages.incomplete))
      .trim()
      .min(1, gatewayMessages.incomplete),
  })
  .superRefine((form, ctx) => {
    if (form.iotId.length !== GATEWAY_SERIAL_LENGTH || !SERIAL.test(form.iotId))
      ctx.addIssue({ code: 'custom', path: ['iotId'], message: gatewayMessages.badSerial });
    else if (!snField.safeParse(form.snCode).success)
      ctx.addIssue({ code: 'custom', path: ['snCode'], message: gatewayMessages.snRequired });
  });
export type UnbindForm = z.input<typeof unbindForm>;

export const unbindMessage = z
  .object({ MsgType: z.literal('unbind', { error: gatewayMessages.badMessageType }) })
  .and(unbindForm);
export type UnbindMessage = z.input<typeof unbindMessage>;

/** What the phone may send on the maintenance socket. */
export const maintenanceMessageType = z.object({
  MsgType: z.enum(['bind', 'unbind'], { error: gatewayMessages.badMessageType }),
});

/** The server's answer on the maintenance socket (docs/design.md section 6). */
export const maintenanceReply = z.object({
  MsgType: z.enum(['bindResult', 'unbindResult']),
  /** 200 done; 400 bad input; 403 not allowed; 404 unknown gateway or machine; 409 clash; 504 no reply. */
  Code: z.number().int(),
  Content: z.string(),
});
export type MaintenanceReply = z.infer<typeof maintenanceReply>;

/** The maintenance socket's path: the gateway serial plus a fixed suffix (docs/design.md section 6). */
export const MAINTENANCE_SUFFIX = '_maintain';
export const maintenanceSocket = {
  route: '/ws/maintenance/:channel',
  path: (gatewaySerial: string) =>
    `/ws/maintenance/${encodeURIComponent(gatewaySerial)}${MAINTENANCE_SUFFIX}`,
  /** The serial a channel names, or null when it lacks the suffix. */
  serialOf: (channel: string): string | null =>
    channel.endsWith(MAINTENANCE_SUFFIX) && channel.length > MAINTENANCE_SUFFIX.length
      ? channel.slice(0, -MAINTENANCE_SUFFIX.length)
      : null,
} as const;

/** One entry of GET /api/wechat/getPlcModel (docs/product.md section 7: label/value list). */
export interface PlcModelOption {
  label: string;
  value: string;
  /** Beyond the spec: how the agent reads it, and the port it listens on unless told otherwise. */
  protocol: PlcProtocol;
  port: number;
}

/** Admin: registering a gateway (its serial) and what the registry shows. */
export const registerGatewayBody = z.object({
  serial: z
    .string(whenMissing(gatewayMessages.serialRequired))
    .trim()
    .length(GATEWAY_SERIAL_LENGTH, gatewayMessages.badSerial)
    .regex(SERIAL, gatewayMessages.badSerial),
  name: z.string().trim().max(64).optional(),
});
export type RegisterGatewayBody = z.input<typeof registerGatewayBody>;

export const gatewaySerialBody = z.object({
  serial: z
    .string(whenMissing(gatewayMessages.serialRequired))
    .trim()
    .min(1, gatewayMessages.serialRequired)
    .max(64, gatewayMessages.badSerial),
});
export type GatewaySerialBody = z.input<typeof gatewaySerialBody>;

export interface GatewayRow {
  serial: string;
  name: string;
  online: boolean;
  /** Epoch ms of the last message heard, null if never. */
  lastSeenAt: number | null;
  agentVersion: string | null;
  machines: {
    snCode: string;
    plcIp: string | null;
    plcPort: number | null;
    unitId: number | null;
    plcModel: string | null;
  }[];
}

/** A new or rotated credential: shown once, never stored in clear. */
export interface GatewayCredential {
  serial: string;
  secret: string;
}
