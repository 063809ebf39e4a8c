import { z } from 'zod';
import { primitiveMessages, SN_CODE, text } from './primitives.ts';
import { MACHINE_STATE } from './rules/machine-states.ts';

/*
 * Gateway <-> server protocol over MQTT (docs/design.md section 6). Every message a gateway publishes
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
/** A machine state (rules/machine-states.ts): 1 idle, 2 running, 3 fault. */
export const machineState = z.union([
  z.literal(MACHINE_STATE.idle),
  z.literal(MACHINE_STATE.running),
  z.literal(MACHINE_STATE.fault),
]);

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
    .meta({ maxProperties: MAX_PARAMS })
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

/** Why the server did not apply (all of) a message (docs/protocol.md, "Rejections"). */
export const rejectionReasons = ['stale', 'malformed'] as const;
export type RejectionReason = (typeof rejectionReasons)[number];

const REJECTION_DETAIL_MAX = 500;

export const rejection = z.object({
  /** The rejected message's seq; null when none could be read from it. */
  seq: seqSchema.nullable(),
  /**
   * `stale`: the seq is not above what the server has already taken from this gateway; the
   * message was not applied. `malformed`: it broke the contract; see `items`.
   */
  reason: z.enum(rejectionReasons),
  /** For the gateway's developer (English): the first problem, with its path. */
  detail: z.string().max(REJECTION_DETAIL_MAX),
  /**
   * Malformed only: the indexes of the readings (or events) left out, the rest of the message
   * applied. Absent: nothing of the message applied.
   */
  items: z.array(z.number().int().min(0)).max(500).optional(),
});
export type Rejection = z.infer<typeof rejection>;

/**
 * The server's answer on a gateway's ack topic. `seq`: every message up to it is committed; the
 * gateway may forget them. `next`, only when the server did not take what the gateway sent (a
 * gap: it restarted, or missed messages): resend from `next` now, without waiting for a timer.
 * `rejected`: one message was not applied, or not whole. A `seq` or `next - 1` above any seq the
 * gateway ever numbered means its counter was lost: it numbers what it holds from `next` again.
 * `received`: the server holds every message to it and is still writing them (a busy database):
 * wait, resend none of them; said every 2 s while it lasts (docs/protocol.md § 4.2).
 */
export const ackMessage = z.object({
  seq: z.number().int().min(0),
  next: z.number().int().min(1).optional(),
  rejected: rejection.optional(),
  received: z.number().int().min(1).optional(),
});
export type AckMessage = z.infer<typeof ackMessage>;

/** What the server makes of one telemetry or events payload. */
export type GatewayMessageRead =
  | {
      seq: number;
      /** What is applied: the whole message, or its well-formed part (maybe no item at all). */
      message: TelemetryMessage | EventsMessage;
      problem: { detail: string; items?: number[] } | null;
    }
  | { seq: null; message: null; problem: { detail: string } };

const pathOf = (path: readonly PropertyKey[]) =>
  path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');

const describeIssue = (issue: z.core.$ZodIssue, prefix: readonly PropertyKey[] = []) =>
  `${pathOf([...prefix, ...issue.path]) || 'message'}: ${issue.message}`.slice(
    0,
    REJECTION_DETAIL_MAX,
  );

/**
 * A compiled form of `telemetryMessage` / `eventsMessage` (the server's, from their JSON Schema:
 * apps/server/src/telemetry/whole-message-check.ts): true only when the zod parse would accept the
 * parsed payload whole and return it unchanged, so the payload can be taken as it is. False decides
 * nothing: the zod parse then reads the message, and words any rejection.
 */
export type WholeMessageCheck = (kind: 'telemetry' | 'events', json: unknown) => boolean;

/**
 * Reads a gateway's telemetry or events payload. A message that parses whole is taken as it is.
 * One that does not is malformed: without a readable seq nothing can be done with it; with one,
 * its seq is used up (so it leaves no hole in the stream) and its well-formed readings or events
 * are kept, the others left out. The same payload always reads the same, on every instance.
 * `isWhole`: a faster check of the common case (docs/architecture.md, decision 5).
 */
export const readGatewayMessage = (
  kind: 'telemetry' | 'events',
  payload: string,
  isWhole?: WholeMessageCheck,
): GatewayMessageRead => {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { seq: null, message: null, problem: { detail: `not JSON: ${reason}`.slice(0, 500) } };
  }
  if (isWhole?.(kind, json)) {
    const message = json as TelemetryMessage | EventsMessage;
    return { seq: message.seq, message, problem: null };
  }
  const whole = (kind === 'telemetry' ? telemetryMessage : eventsMessage).safeParse(json);
  if (whole.success) return { seq: whole.data.seq, message: whole.data, problem: null };
  const fields = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const seq = seqSchema.safeParse(fields.seq);
  if (!seq.success)
    return {
      seq: null,
      message: null,
      problem: { detail: describeIssue(seq.error.issues[0]!, ['seq']) },
    };
  const floorRead = floor.safeParse(fields.floor);
  const head = {
    seq: seq.data,
    ...(floorRead.success && floorRead.data !== undefined && { floor: floorRead.data }),
  };
  const key = kind === 'telemetry' ? 'readings' : 'events';
  const list = z.array(z.unknown()).min(1).max(500).safeParse(fields[key]);
  const envelope = z.object({ seq: seqSchema, floor }).safeParse(fields);
  if (!list.success || !envelope.success) {
    const issue = list.success ? envelope.error!.issues[0]! : list.error.issues[0]!;
    const detail = describeIssue(issue, list.success ? [] : [key]);
    const message = kind === 'telemetry' ? { ...head, readings: [] } : { ...head, events: [] };
    return { seq: seq.data, message, problem: { detail } };
  }
  const item = kind === 'telemetry' ? reading : operationEvent;
  const good: unknown[] = [];
  const items: number[] = [];
  let detail = '';
  list.data.forEach((value, i) => {
    const one = item.safeParse(value);
    if (one.success) return good.push(one.data);
    items.push(i);
    detail ||= describeIssue(one.error.issues[0]!, [key, i]);
  });
  const message = (
    kind === 'telemetry' ? { ...head, readings: good } : { ...head, events: good }
  ) as TelemetryMessage | EventsMessage;
  return { seq: seq.data, message, problem: { detail, items } };
};
