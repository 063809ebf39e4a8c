import { z } from 'zod';
import { gatewayCommand, gatewayCommandReply } from './gateway-commands.ts';
import { ackMessage, eventsMessage, gatewayStateMessage, telemetryMessage } from './mqtt.ts';

/*
 * The JSON Schemas of every gateway-facing message, made from the contracts (docs/protocol.md).
 * They are checked in under docs/protocol/schemas/ for gateway developers who never read this
 * code; protocol-schemas.test.ts fails when they no longer match.
 */

const messages = {
  telemetry: {
    schema: telemetryMessage,
    title: 'Telemetry',
    topic: 'lw/v1/gw/{gatewayId}/telemetry',
  },
  events: { schema: eventsMessage, title: 'Events', topic: 'lw/v1/gw/{gatewayId}/events' },
  state: {
    schema: gatewayStateMessage,
    title: 'Gateway state',
    topic: 'lw/v1/gw/{gatewayId}/state',
  },
  command: { schema: gatewayCommand, title: 'Command', topic: 'lw/v1/gw/{gatewayId}/cmd' },
  'command-reply': {
    schema: gatewayCommandReply,
    title: 'Command reply',
    topic: 'lw/v1/gw/{gatewayId}/cmd/reply',
  },
  ack: { schema: ackMessage, title: 'Ack', topic: 'lw/v1/gw/{gatewayId}/ack' },
} as const;

/**
 * File name → JSON text. The refinements say themselves through their `.meta()` (no control
 * characters in text: primitives.ts `text()`; at most 32 params in mqtt.ts).
 */
export const protocolSchemaFiles = (): Map<string, string> =>
  new Map(
    Object.entries(messages).map(([name, { schema, title, topic }]) => {
      const json = {
        title,
        description: `Published on ${topic} (docs/protocol.md).`,
        ...z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      };
      return [`${name}.json`, `${JSON.stringify(json, null, 2)}\n`];
    }),
  );
