import {
  eventsMessage,
  readGatewayMessage,
  telemetryMessage,
  type EventsMessage,
  type TelemetryMessage,
} from '@linewatch/contracts/mqtt';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileWholeMessageCheck } from './whole-message-check.ts';

// The compiled check against the zod parse it stands in for (docs/architecture.md, decision 5):
// over every field of a telemetry and an events message left out, given a value of another type,
// out of range, with control characters, past the columns' ranges, with extra fields, lists too
// long, it says true exactly when zod accepts the message and returns it unchanged, and a payload
// reads the same (message, seq, rejection words, items) with it as without.

const isWhole = compileWholeMessageCheck();
const TS = Date.UTC(2026, 10, 27, 8);

const readingOf = (i: number) => ({
  sn: `M-${i}`,
  ts: TS + i * 1000,
  status: 2,
  idleReason: 'upstream',
  counters: { produced: 100 + i, ok: 90 + i, ng: 10, firstPassOk: 85 },
  alarms: [{ code: 'E01', active: true }],
  params: { speed: 12.5, mode: 'auto' },
});
const telemetry = { seq: 7, floor: 3, readings: [readingOf(0), readingOf(1)] };
const events = {
  seq: 8,
  events: [{ type: 'operation', sn: 'M-1', ts: TS, comment: '换模', setValue: '12', user: '张三' }],
};

const long = (n: number, unit = 'a') => unit.repeat(n);
/** Values put in place of each field. */
const badValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -0,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1e300,
  Date.UTC(2013, 11, 31),
  Date.UTC(2100, 0, 1) + 1,
  '',
  '1',
  '2026-02-30',
  'a\u0000b',
  '\u0007',
  '\u009f',
  '\ud800',
  'x\udfffy',
  '😀',
  long(16, '😀'),
  long(17, '😀'),
  long(32),
  long(33),
  long(64),
  long(65),
  long(200),
  long(201),
  long(256),
  long(257),
  long(500),
  long(501),
  'upstream',
  'running',
  'operation',
  {},
  [],
  [1],
  { code: 'E', active: true },
  [{ code: 'E', active: 'yes' }],
  Array.from({ length: 65 }, () => ({ code: 'E', active: false })),
  Array.from({ length: 64 }, () => ({ code: 'E', active: false })),
  Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`p${i}`, i])),
  Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, i])),
  { [long(65)]: 1 },
  { [long(64)]: 1 },
  { 'a\u0000': 1 },
  { a: null },
  { a: true },
  { a: long(257) },
  { a: 'b\u0001' },
];

type Json = Record<string, unknown>;
const clone = <T>(value: T): T => structuredClone(value);

/** Every path to a value in `value` (objects' keys, arrays' indexes). */
const pathsOf = (value: unknown, prefix: (string | number)[] = []): (string | number)[][] => {
  if (typeof value !== 'object' || value === null) return [];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [
    [...prefix, key],
    ...pathsOf((value as Json)[key as string], [...prefix, key]),
  ]);
};
const parentOf = (root: unknown, path: (string | number)[]) =>
  path.slice(0, -1).reduce<unknown>((at, key) => (at as Json)[key as string], root) as Json;

/** The message changed in every way listed above, as JSON text. */
function* variantsOf(base: object): Generator<string> {
  yield JSON.stringify(base);
  const paths = pathsOf(base);
  for (const path of [[], ...paths]) {
    const key = path.at(-1);
    if (key !== undefined) {
      const gone = clone(base);
      const parent = parentOf(gone, path);
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      yield JSON.stringify(gone);
      for (const bad of badValues) {
        const changed = clone(base);
        parentOf(changed, path)[key] = bad;
        yield JSON.stringify(changed);
      }
    }
    const target = path.length === 0 ? base : parentOf(base, [...path, '']);
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      for (const extra of ['extra', '__proto__', 'constructor']) {
        const added = clone(base) as Json;
        (path.length === 0 ? added : parentOf(added, [...path, '']))['\u0002KEY'] = 1;
        // Named in the JSON text, so that "__proto__" arrives as JSON.parse makes it: an own key.
        yield JSON.stringify(added).replace('"\\u0002KEY"', `"${extra}"`);
      }
    }
  }
  // Lists too long or empty, and numbers JSON reads as Infinity.
  const listKey = 'readings' in base ? 'readings' : 'events';
  const list = (base as Json)[listKey] as unknown[];
  for (const length of [0, 499, 500, 501]) {
    yield JSON.stringify({
      ...base,
      [listKey]: Array.from({ length }, (_, i) => list[i % list.length]),
    });
  }
  const text = JSON.stringify(base);
  yield text.replace('"seq":', '"seq":1e999,"x":');
  yield text.replace(/"ts":\d+/, '"ts":1e999');
  yield text.replace('12.5', '1e999');
  yield text.replace('12.5', '-1e999');
  yield text.replace('"speed"', '"__proto__"');
  yield text.replace('"speed"', '"\\u005f_proto__"');
  yield text.replace('"mode"', '"constructor"');
  yield '[]';
  yield 'null';
  yield '7';
  yield '"x"';
}

const cases: [kind: 'telemetry' | 'events', payload: string][] = [
  ...[...variantsOf(telemetry)].map((p) => ['telemetry', p] as ['telemetry', string]),
  ...[...variantsOf(events)].map((p) => ['events', p] as ['events', string]),
  ['telemetry', JSON.stringify(events)],
  ['events', JSON.stringify(telemetry)],
];

describe('the compiled whole-message check', () => {
  it('is true exactly when zod accepts the message and returns it unchanged', () => {
    let whole = 0;
    let stripped = 0;
    for (const [kind, payload] of cases) {
      const json: unknown = JSON.parse(payload);
      const parsed = (kind === 'telemetry' ? telemetryMessage : eventsMessage).safeParse(json);
      const unchanged = parsed.success && isDeepStrictEqual(parsed.data, json);
      if (unchanged) whole++;
      if (parsed.success && !unchanged) stripped++;
      expect({ kind, payload, check: isWhole(kind, json) }).toEqual({
        kind,
        payload,
        check: unchanged,
      });
    }
    // Not vacuous: many messages go each way, and some only zod may take (it strips a field).
    expect(cases.length).toBeGreaterThan(2000);
    expect(whole).toBeGreaterThan(50);
    expect(stripped).toBeGreaterThan(10);
  });

  it('leaves every read as it was: message, seq, rejection and its words', () => {
    for (const [kind, payload] of cases) {
      const fast = readGatewayMessage(kind, payload, isWhole);
      const zodOnly = readGatewayMessage(kind, payload);
      expect({ payload, read: fast }).toStrictEqual({ payload, read: zodOnly });
    }
  });

  it('takes a valid message as JSON.parse made it', () => {
    const payload = JSON.stringify(telemetry);
    const read = readGatewayMessage('telemetry', payload, isWhole);
    expect(read.problem).toBeNull();
    expect(read.message as TelemetryMessage).toStrictEqual(telemetry);
    const eventsRead = readGatewayMessage('events', JSON.stringify(events), isWhole);
    expect(eventsRead.message as EventsMessage).toStrictEqual(events);
  });
});
