import { z } from 'zod';
import { primitiveMessages, SN_CODE, text } from './primitives.ts';

/*
 * Gateway <-> server protocol over MQTT (DESIGN.md section 6). Every message a gateway publishes
 * on telemetry or events carries `seq`, one counter per gateway shared by both topics. The server
 * commits a message's effects with the gateway's highest persisted seq in one transaction and only
 * then publishes that seq on the gateway's ack topic; the gateway keeps every message until then.
 */
export const TOPIC_ROOT = 'lw/v1/gw';
export const gatewayIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const topicKinds = ['telemetry', 'events', 'state', 'cmd', 'cmd/reply', 'ack'] as const;
export type TopicKind = (typeof topicKinds)[number];

export const topicOf = (gatewayId: string, kind: TopicKind): string =>
  `${TOPIC_ROOT}/${gatewayId}/${kind}`;

/** What gateways publish and the server subscribes to, for every gateway (`+`). */
export type InboundKind = Exclude<TopicKind, 'cmd' | 'ack'>;

/** The server's subscription for one inbound kind, across all gateways. */
export const serverSubscriptionOf = (kind: InboundKind): string => `${TOPIC_ROOT}/+/${kind}`;

export const parseTopic = (topic: string): { gatewayId: string; kind: TopicKind } | null => {
  const prefix = `${TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const gatewayId = rest.slice(0, slash);
  const kind = rest.slice(slash + 1) as TopicKind;
  if (!gatewayIdSchema.safeParse(gatewayId).success || !topicKinds.includes(kind)) return null;
  return { gatewayId, kind };
};

/** The SN alphabet on the wire (primitives.ts): exact, no trimming. */
export const snCodeSchema = z.string().regex(SN_CODE, primitiveMessages.snInvalid);
/** 1 idle, 2 running, 3 fault (spec: device light). */
export const machineState = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type MachineState = z.infer<typeof machineState>;

/** Any value a PLC's 32- or 48-bit counter can hold; the rollup columns are bigint (migration 003). */
const counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Epoch milliseconds; sane bounds keep a broken clock from writing year-3000 rollups. */
const timestamp = z
  .number()
  .int()
  .min(Date.UTC(2014, 0, 1))
  .max(Date.UTC(2100, 0, 1));

const MAX_PARAMS = 32;

export const reading = z.object({
  sn: snCodeSchema,
  ts: timestamp,
  status: machineState,
  idleReason: z.enum(['upstream', 'downstream']).optional(),
  /** Monotonic totals since the PLC started; a drop means the PLC restarted. */
  counters: z.object({ produced: counter, ok: counter, ng: counter, firstPassOk: counter }),
  alarms: z.array(z.object({ code: text().min(1).max(32), active: z.boolean() })).max(64),
  params: z
    .record(text().max(64), z.union([z.number(), text().max(256)]))
    .refine((p) => Object.keys(p).length <= MAX_PARAMS, `at most ${MAX_PARAMS} params`)
    .optional(),
});
export type Reading = z.infer<typeof reading>;

export const seqSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/**
 * The lowest seq the gateway still holds. Only matters after its bounded buffer overflowed: the
 * server then knows the messages below it are gone and accepts from here instead of waiting.
 */
const floor = seqSchema.optional();

export const telemetryMessage = z.object({
  seq: seqSchema,
  floor,
  readings: z.array(reading).min(1).max(500),
});
export type TelemetryMessage = z.infer<typeof telemetryMessage>;

export const operationEvent = z.object({
  type: z.literal('operation'),
  sn: snCodeSchema,
  ts: timestamp,
  comment: text().max(500),
  setValue: text().max(200),
  user: text().max(64),
});
export type OperationEvent = z.infer<typeof operationEvent>;

export const eventsMessage = z.object({
  seq: seqSchema,
  floor,
  events: z.array(operationEvent).min(1).max(500),
});
export type EventsMessage = z.infer<typeof eventsMessage>;

/** Retained on the state topic; the broker publishes the "offline" last will for a dead link. */
export const gatewayStateMessage = z.object({
  state: z.enum(['online', 'offline']),
  ts: timestamp,
  machines: z.array(snCodeSchema).max(1000).optional(),
  /** The agent's version, shown in the gateway registry. */
  agentVersion: z.string().max(32).optional(),
});
export type GatewayStateMessage = z.infer<typeof gatewayStateMessage>;

/**
 * The server's answer on a gateway's ack topic. `seq`: every message up to it is committed; the
 * gateway may forget them. `next`, only when the server did not take what the gateway sent (a
 * gap: it restarted, or missed messages): resend from `next` now, without waiting for a timer.
 */
export const ackMessage = z.object({
  seq: z.number().int().min(0),
  next: z.number().int().min(1).optional(),
});
export type AckMessage = z.infer<typeof ackMessage>;
