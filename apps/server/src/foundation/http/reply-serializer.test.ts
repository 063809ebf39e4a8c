import { machineListReply, type MachineCard } from '@linewatch/contracts/devices';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import { mapPoints } from '@linewatch/contracts/statistics';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReplyContractError, replySerializerCompiler } from './reply-serializer.ts';

const card: MachineCard = {
  snCode: 'B-000001',
  nickSnCode: '冲压机"1"号\\',
  deviceName: '自动冲压机\n一',
  deviceStatus: 'error',
  iot: 2,
  isCollect: false,
  produceLine: '总装一线',
  produceGroup: '',
  produceNumber: 12_345,
  produceTargetNumber: 20_000,
  produceTargetDue: 11_234.5,
  ngNumber: 0,
  ngTargetNumber: 40,
  ngTargetDue: 22,
  targetPartial: true,
  ppm: null,
  maxPPM: 44,
  ppmTarget: 30,
  superiorityRate: 98.7654321,
  superiorityRateTarget: 95,
  yield: null,
  yieldTarget: 98,
  useRate: 0.1 + 0.2,
  useRateTarget: 80,
};
const listSchema = envelopeSchema(machineListReply);
const listReply = { success: true, code: '0000', msg: 'success', data: { data: [card], total: 1 } };
const compile = (schema: z.ZodType, check = false) =>
  replySerializerCompiler({ check })({ schema, method: 'GET', url: '/x' }) as (
    data: unknown,
  ) => string;
/** What fastify-type-provider-zod wrote before: zod's encode, then JSON.stringify. */
const zodWay = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data));

describe('the reply serialiser', () => {
  it('writes the bytes zod encode + JSON.stringify wrote: escapes, nulls, order, tuples', () => {
    expect(compile(listSchema)(listReply)).toBe(zodWay(listSchema, listReply));
    const points = envelopeSchema(mapPoints);
    const reply = {
      ...listReply,
      data: {
        machineStatusList: [
          { name: '深圳市', value: 2, coord: [114.1, 22.6] },
          { name: '德国', value: 1, coord: null },
        ],
      },
    };
    expect(compile(points)(reply)).toBe(zodWay(points, reply));
  });

  it('writes the contract’s fields only, as zod’s encode strips the others', () => {
    const withExtra = { ...listReply, secret: 'x', data: { ...listReply.data, page: 3 } };
    expect(compile(listSchema)(withExtra)).toBe(zodWay(listSchema, listReply));
  });

  it('refuses a reply missing a field of its contract', () => {
    const { ppm: _, ...missing } = card;
    const reply = { ...listReply, data: { data: [missing], total: 1 } };
    expect(() => compile(listSchema)(reply)).toThrow();
    expect(() => compile(listSchema, true)(reply)).toThrow(ReplyContractError);
  });

  it('with check (the test server), refuses what only zod sees: an unknown status', () => {
    const reply = { ...listReply, data: { data: [{ ...card, deviceStatus: 'broken' }], total: 1 } };
    expect(() => compile(listSchema, true)(reply)).toThrow(ReplyContractError);
  });

  it('fails at start, naming the route, for a contract JSON Schema cannot express', () => {
    expect(() =>
      replySerializerCompiler()({ schema: z.object({ at: z.date() }), method: 'GET', url: '/y' }),
    ).toThrow('GET /y');
  });
});
