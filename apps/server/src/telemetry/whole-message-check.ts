import { eventsMessage, telemetryMessage, type WholeMessageCheck } from '@linewatch/contracts/mqtt';
import { Ajv } from 'ajv';
import { z } from 'zod';

/*
 * The fast path of reading a gateway message (docs/architecture.md, decision 5): the contracts' zod
 * schemas, turned into JSON Schema once at start and compiled by ajv, check a whole message in one
 * call where zod parsed each reading into a new object (≈ 19 % of the main thread at 100 readings a
 * message). Nothing is written twice: the JSON Schema comes from the zod schema, whose refinements
 * carry their JSON Schema form (`text()` in primitives.ts, the params count in mqtt.ts).
 *
 * It answers true only where zod would accept the message and return it unchanged; anything else
 * (an extra field, which zod strips; any error) goes to the zod parse, so every rejection and its
 * words stay zod's. whole-message-check.test.ts runs both over generated messages.
 */

/** zod's output form: objects refuse properties zod would strip, and a transform would throw. */
const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    override: ({ zodSchema, jsonSchema }) => {
      // zod builds a record's output by assignment, so an own "__proto__" key (JSON.parse makes
      // one) is not in its output: such a message goes to the zod parse.
      const keys = jsonSchema.propertyNames;
      if (zodSchema._zod.def.type === 'record' && typeof keys === 'object')
        jsonSchema.propertyNames = { allOf: [keys, { not: { const: '__proto__' } }] };
    },
  });

export const compileWholeMessageCheck = (): WholeMessageCheck => {
  // Both count a string's length in code points (zod 4.6's min/max; ajv's default "unicode").
  const ajv = new Ajv();
  const telemetry = ajv.compile(jsonSchemaOf(telemetryMessage));
  const events = ajv.compile(jsonSchemaOf(eventsMessage));
  return (kind, json) => (kind === 'telemetry' ? telemetry(json) : events(json));
};
