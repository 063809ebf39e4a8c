import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { z } from 'zod';

/** A reply that does not match its contract: the request fails (500), never sends it. */
export class ReplyContractError extends Error {
  constructor(route: string, cause: unknown) {
    super(`the reply of ${route} does not match its contract`, { cause });
    this.name = 'ReplyContractError';
  }
}

/**
 * A contract's writer: its JSON Schema (`z.toJSONSchema`, the JSON side) compiled by
 * fast-json-stringify. Throws, naming `name`, when JSON Schema cannot express the contract.
 */
export const contractWriter = (schema: z.ZodType, name: string): ((data: unknown) => string) => {
  try {
    return fastJsonStringify(
      z.toJSONSchema(schema, {
        io: 'input',
        target: 'draft-07',
        unrepresentable: 'throw',
      }) as Schema,
    );
  } catch (error) {
    throw new Error(`${name}: its contract has no JSON Schema`, { cause: error });
  }
};

/**
 * The one way every reply with a contract schema is written (docs/architecture.md decision 77):
 * the contract as JSON Schema (`z.toJSONSchema`, the JSON side) compiled by fast-json-stringify,
 * which writes the contract's fields and only them, in its order, each in its JSON type, and
 * throws on a required field missing or a value it cannot write. It does not check what the
 * types leave open (an enum's members, a refinement): the handlers' return types are the
 * contracts' (fastify-type-provider-zod), and with `check` (the test server) every reply is
 * also encoded by zod as before, and must parse and come out byte for byte the same.
 * A contract JSON Schema cannot express fails at start, naming the route.
 */
export const replySerializerCompiler =
  ({ check = false }: { check?: boolean } = {}): FastifySerializerCompiler<unknown> =>
  ({ schema, method, url }) => {
    const route = `${method} ${url}`;
    if (!(schema instanceof z.ZodType)) throw new Error(`${route}: a reply schema must be zod`);
    const write = contractWriter(schema, `${route}'s reply`);
    if (!check) return write;
    return (data) => {
      const encoded = z.safeEncode(schema, data);
      if (!encoded.success) throw new ReplyContractError(route, encoded.error);
      const json = write(data);
      if (json !== JSON.stringify(encoded.data))
        throw new ReplyContractError(route, new Error(`written as ${json}`));
      return json;
    };
  };
