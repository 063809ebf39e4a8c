/*
 * Reply serialisation alone (docs/architecture.md decision 77): the server's serialiser
 * (apps/server/src/foundation/http/reply-serializer.ts) against zod encode + JSON.stringify, what
 * fastify-type-provider-zod did, on the real contracts of the largest replies with data of their
 * real size. Prints µs a reply; one core, no server. Both must write the same bytes.
 *
 *   npm run serialize -w @linewatch/bench -- [--ms 2000]
 */
import { machineListReply } from '@linewatch/contracts/devices';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import { mapPoints, statisticsReply } from '@linewatch/contracts/statistics';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { replySerializerCompiler } from '../../apps/server/src/foundation/http/reply-serializer.ts';

const { values: args } = parseArgs({ options: { ms: { type: 'string', default: '2000' } } });

const card = (i: number) => ({
  snCode: `B-${String(i).padStart(6, '0')}`,
  nickSnCode: `冲压机${i}号`,
  deviceName: `自动冲压机 ${i}`,
  deviceStatus: 'running',
  iot: 1,
  isCollect: i % 3 === 0,
  produceLine: '总装一线',
  produceGroup: '冲压组',
  produceNumber: 12_345 + i,
  produceTargetNumber: 20_000,
  produceTargetDue: 11_234,
  ngNumber: 12,
  ngTargetNumber: 40,
  ngTargetDue: 22,
  targetPartial: true,
  ppm: 31.5,
  maxPPM: 44,
  ppmTarget: 30,
  superiorityRate: 98.7654,
  superiorityRateTarget: 95,
  yield: i % 2 ? 99.12 : null,
  yieldTarget: 98,
  useRate: 81.23,
  useRateTarget: 80,
});
const row = (i: number) => ({
  machineCode: `B-${String(i).padStart(6, '0')}`,
  nickSnCode: `冲压机${i}号`,
  deviceName: `自动冲压机 ${i}`,
  productLine: '总装一线',
  productGroup: '冲压组',
  produceNumber: 612_345,
  produceTargetNumber: 600_000,
  ngNumber: 120,
  ngTargetNumber: 1200,
  yield: 99.123,
  yieldTarget: 98,
  avgPPM: 31.25,
  maxPPM: 44,
  ppmTarget: 30,
  useRate: i % 2 ? 81.5 : null,
  useRateTarget: 80,
  preProcessWaitingTime: 1234,
  afterProcessWaitingTime: 345,
  runningTime: 2_345_678,
  errorTime: 3456,
  waitingTime: 45_678,
});
const ok = <T>(data: T) => ({ success: true, code: '0000', msg: 'success', data });

const cases: [string, z.ZodType, unknown][] = [
  [
    'device list, 15 cards',
    envelopeSchema(machineListReply),
    ok({ data: Array.from({ length: 15 }, (_, i) => card(i)), total: 10_000 }),
  ],
  [
    'statistics, 5 rows',
    envelopeSchema(statisticsReply),
    ok({ data: Array.from({ length: 5 }, (_, i) => row(i)), total: 10_000 }),
  ],
  [
    'map points, 34 provinces',
    envelopeSchema(mapPoints),
    ok({
      machineStatusList: Array.from({ length: 34 }, (_, i) => ({
        name: `省份${i}`,
        value: i * 7,
        coord: i % 5 ? [113.123456 + i, 23.456789] : null,
      })),
    }),
  ],
];

/** µs a call, after a warm-up, over `ms` milliseconds. */
const microseconds = (fn: () => unknown) => {
  for (let i = 0; i < 5000; i++) fn();
  const end = performance.now() + Number(args.ms);
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now < end) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
    now = performance.now();
  }
  return ((now - start) * 1000) / n;
};

const compile = replySerializerCompiler();
console.log('| reply | bytes | zod encode + JSON.stringify µs | of which encode µs | server µs |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, schema, data] of cases) {
  const server = compile({ schema, method: 'GET', url: name }) as (d: unknown) => string;
  const before = () => JSON.stringify(z.encode(schema, data));
  if (server(data) !== before()) throw new Error(`${name}: the server writes other bytes`);
  const bytes = Buffer.byteLength(before());
  const cells = [microseconds(before), microseconds(() => z.encode(schema, data))];
  cells.push(microseconds(() => server(data)));
  console.log(`| ${name} | ${bytes} | ${cells.map((c) => c.toFixed(1)).join(' | ')} |`);
}
