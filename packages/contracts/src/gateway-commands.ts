import { z } from 'zod';
import { snCodeSchema } from './mqtt.ts';

/*
 * Commands from the server to one gateway (`lw/v1/gw/{id}/cmd`) and the gateway's replies
 * (`lw/v1/gw/{id}/cmd/reply`), docs/design.md section 6. Every command carries a correlation id; the
 * reply repeats it, so the server matches a reply to the command that is waiting for it and drops
 * a late or unknown one. Codes follow the maintenance socket: 200 done, 4xx refused, 5xx failed.
 */

export const correlationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

const ipv4 = z.ipv4();

const pingCommand = z.object({ type: z.literal('ping') });

/**
 * docs/product.md section 3, bind payload: the machine, its PLC's connection (Modbus TCP: IP, port, unit id)
 * and model, the gateway's IPs. Port and unit id are optional for a server older than them: the
 * agent then uses its `modbusPort` and the model's unit id.
 */
export const bindCommand = z.object({
  type: z.literal('bind'),
  snCode: snCodeSchema,
  plcIp: ipv4,
  plcPort: z.number().int().min(1).max(65_535).optional(),
  unitId: z.number().int().min(0).max(255).optional(),
  /** The gateway's two IPs, comma-joined as the phone sends them. */
  iotIp: z
    .string()
    .max(64)
    .refine((v) => v.split(',').every((ip) => ipv4.safeParse(ip.trim()).success), {
      message: '网关IP格式不正确',
    }),
  plcModel: z.string().min(1).max(64),
});

export const unbindCommand = z.object({ type: z.literal('unbind'), snCode: snCodeSchema });

/**
 * A notice, not answered: machines this gateway polls that are not bound to it, whose data the
 * server drops. Sent when the gateway's state lists them, and when the server first drops one.
 */
export const unboundCommand = z.object({
  type: z.literal('unbound'),
  machines: z
    .array(z.object({ sn: snCodeSchema, registered: z.boolean() }))
    .min(1)
    .max(1000),
});

export const gatewayCommandBody = z.discriminatedUnion('type', [
  pingCommand,
  bindCommand,
  unbindCommand,
  unboundCommand,
]);
export type GatewayCommandBody = z.infer<typeof gatewayCommandBody>;

/** What travels on the cmd topic: a command body plus its correlation id. */
export const gatewayCommand = z.intersection(
  z.object({ correlationId: correlationIdSchema }),
  gatewayCommandBody,
);
export type GatewayCommand = z.infer<typeof gatewayCommand>;

const commandReplyCode = z.number().int().min(200).max(599);

export const gatewayCommandReply = z.object({
  correlationId: correlationIdSchema,
  code: commandReplyCode,
  /** For a person (the maintenance socket shows it): Chinese. */
  content: z.string().max(500),
});
export type GatewayCommandReply = z.infer<typeof gatewayCommandReply>;

/** The gateway's answer to a command it recognises but cannot carry out (yet). */
export const NOT_SUPPORTED_CONTENT = '网关暂不支持此命令';

/**
 * What the server and the agent log, once per machine, about a machine the gateway polls that is
 * not bound to it: what is wrong and what to do, in the words of the pages that fix it.
 */
export const unboundAdvice = (gatewayId: string, sn: string, registered: boolean) =>
  registered
    ? `machine ${sn} is not bound to gateway ${gatewayId}: the server drops its data. ` +
      `Bind it from the phone (个人中心 → 绑定机台, gateway ${gatewayId}), ` +
      `or take it out of the agent's config`
    : `machine ${sn} is not registered: the server drops its data from gateway ${gatewayId}. ` +
      `Register it (管理 → 机台管理, or the machine sheet), then bind it from the phone ` +
      `(个人中心 → 绑定机台, gateway ${gatewayId}), or take it out of the agent's config`;
