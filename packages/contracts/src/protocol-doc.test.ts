import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { gatewayCommand, gatewayCommandReply } from './gateway-commands.ts';
import { MQTT_MAX_CONNECT_BYTES, MQTT_MAX_PACKET_BYTES, TELEMETRY_HEARTBEAT_MS } from './limits.ts';
import {
  ackMessage,
  eventsMessage,
  gatewayStateMessage,
  snCodeSchema,
  telemetryMessage,
} from './mqtt.ts';

// Every example payload of docs/protocol.md, parsed with the contracts: a fenced block tagged
// ```json <message> is one example of that message.

const DOC = readFileSync(
  fileURLToPath(new URL('../../../docs/protocol.md', import.meta.url)),
  'utf8',
);

const schemas: Record<string, z.ZodType> = {
  telemetry: telemetryMessage,
  events: eventsMessage,
  state: gatewayStateMessage,
  command: gatewayCommand,
  'command-reply': gatewayCommandReply,
  ack: ackMessage,
};

const examples = [...DOC.matchAll(/^```json ([a-z-]+)\n([\s\S]*?)^```$/gm)].map((m) => ({
  kind: m[1]!,
  text: m[2]!,
}));

describe('docs/protocol.md', () => {
  it('has an example of every gateway-facing message, and each parses with the contracts', () => {
    expect(new Set(examples.map((e) => e.kind))).toEqual(new Set(Object.keys(schemas)));
    for (const { kind, text } of examples) {
      const result = schemas[kind]!.safeParse(JSON.parse(text));
      expect(result.error?.issues, `${kind} example:\n${text}`).toBeUndefined();
    }
  });

  it('tells the limits the contracts hold', () => {
    expect(MQTT_MAX_PACKET_BYTES).toBe(4 * 1024 * 1024);
    expect(MQTT_MAX_CONNECT_BYTES).toBe(64 * 1024);
    expect(TELEMETRY_HEARTBEAT_MS).toBe(5_000);
    expect(DOC).toContain('4 MiB after sign-in, 64 KiB for CONNECT');
    expect(DOC).toContain('`^[A-Za-z0-9_-]{1,64}$`');
    expect(snCodeSchema.safeParse('TP.DOT.01').success).toBe(false);
  });
});
