import { sockets, telemetryApi } from '@linewatch/contracts/telemetry-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { machineListQuery, processAndCountQuery } from '@linewatch/contracts/devices';
import {
  caIdQuery,
  caInfoBody,
  facaByIdQuery,
  facaInfoBody,
  facaPageQuery,
  faInfoBody,
  handlerListQuery,
  mediaQuery,
  optionsQuery,
  taskPageQuery,
  taskResultBody,
} from '@linewatch/contracts/faca';
import { facaApi, mediaPaths } from '@linewatch/contracts/faca-api';
import { dingdingBindUserBody, wechatBindUserBody } from '@linewatch/contracts/identity';
import { KEY_ID_COOKIE } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { primitiveMessages } from '@linewatch/contracts/primitives';
import { realtimeClientMessage } from '@linewatch/contracts/telemetry';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { api, login, loginRequest } from '../../test/http.ts';
import { openSocket } from '../../test/socket.ts';
import { factories } from '../../test/factories.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

let server: TestServer;
let keyId: string;
let sn: string;
/** Valid requests of the FACA forms, for inputs that are valid but for one field. */
let faca: {
  question: Record<string, unknown>;
  fa: Record<string, unknown>;
  ca: Record<string, unknown>;
  task: Record<string, unknown>;
};
beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const line = await make.createLine();
  sn = await make.createDevice({ line });
  const user = await make.createUser({ lines: [line] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);

  const db = server.linewatch.database.db;
  await db.insertInto('faca_workmanships').values({ name: '贴片' }).execute();
  await db.insertInto('faca_influence_parameters').values({ name: '温度' }).execute();
  const phone = api(server.baseUrl, keyId);
  const saved = async (path: string, body: Record<string, unknown>) => {
    const reply = await phone.post<{ id: number }>(path, body);
    expect(reply.body.code, reply.text).toBe('0000');
    return reply.body.data.id;
  };
  const question = {
    snCode: sn,
    workmanship: '贴片',
    count: 1,
    warningContent: await make.alarmText('E101'),
    facaDescription: '抛料',
    hour: 0,
    minute: 1,
    second: 2,
    influenceParameters: '温度',
  };
  const facaInfoId = await saved(facaApi.addOrUpdateFacaInfo.path, question);
  const fa = { facaInfoId, faDescription: '吸嘴偏位' };
  const faInfoId = await saved(facaApi.addOrUpdateFaInfo.path, fa);
  const ca = {
    facaInfoId,
    faInfoId,
    caDescription: '更换吸嘴',
    handler: String(user.id),
    resolvingTime: '2099-12-31',
  };
  const caId = await saved(facaApi.addOrUpdateCaInfo.path, ca);
  faca = { question, fa, ca, task: { caId, treatment: 2, ngReason: '备件未到' } };
});
afterAll(() => server?.close());

describe('bad input is 0400, never 500', () => {
  // The user lookup sent the NUL to the database, which refused it: HTTP 500.
  it('refuses a NUL in psnCode at sign-in with 0400 and a Chinese message', async () => {
    const reply = await loginRequest(server.baseUrl, {
      psnCode: 'admin\u0000',
      passWord: encryptPassword('whatever'),
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: '0400',
      msg: primitiveMessages.controlCharacter,
      data: { errors: [{ path: 'psnCode' }] },
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Inputs generated from the contract schemas themselves, each field either something of its
// type or a near miss: control characters, lone surrogates, huge numbers, impossible dates.

const nearMiss: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '2026-02-30',
    '2025-02-29',
    '0000-00-00',
    '2026-11-31',
    '2026-13-45',
    '9999-99-99',
    '2026-02-28T25:00:00Z',
    '',
    ' ',
    '-1',
    '0',
    '1e308',
    '2147483648',
    'NaN',
    'Infinity',
    '9'.repeat(400),
    '长'.repeat(300),
    'null',
    '%00',
  ),
  fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.integer({ min: 0, max: 0x9f }),
      fc.string({ maxLength: 8 }),
    )
    .filter(([, code]) => code < 0x20 || code >= 0x7f)
    .map(([a, code, b]) => `${a}${String.fromCharCode(code)}${b}`),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => `x${String.fromCharCode(c)}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.bigInt().map(String),
  fc.double(),
  fc.constantFrom(null, true, [], {}, Number.MAX_SAFE_INTEGER + 2, -0),
);

const realDate = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  shape?: Record<string, z.ZodType>;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Something of the schema's own shape (not necessarily valid: strings are any strings). */
const shaped = (schema: z.ZodType): fc.Arbitrary<unknown> => {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
      return fc.option(shaped(def.innerType!), { nil: undefined });
    case 'pipe':
      return shaped(def.in!);
    case 'union':
      return fc.oneof(...def.options!.map(shaped));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'number':
      return fc.integer({ min: 1, max: 100 });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.oneof(fc.string({ maxLength: 70 }), realDate);
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(def.shape!).map(([k, v]) => [k, fieldOf(v)])),
        { requiredKeys: [] },
      );
    default:
      return nearMiss;
  }
};
const fieldOf = (schema: z.ZodType) =>
  fc.oneof({ arbitrary: shaped(schema), weight: 3 }, { arbitrary: nearMiss, weight: 2 });

/**
 * A request: either every field random (shaped or near miss), or every field of its shape but
 * one near miss, so that a bad value reaches the code behind validation often enough to be found.
 */
const inputOf = (schema: z.ZodType): fc.Arbitrary<unknown> => {
  const shape = defOf(schema).shape;
  if (!shape) return fieldOf(schema);
  const keys = Object.keys(shape);
  const oneBad = fc
    .constantFrom(...keys)
    .chain((bad) =>
      fc.record(
        Object.fromEntries(
          keys.map((k) => [
            k,
            k === bad ? nearMiss : fc.option(shaped(shape[k]!), { nil: undefined }),
          ]),
        ),
        { requiredKeys: [bad] },
      ),
    );
  return fc.oneof(
    { arbitrary: oneBad, weight: 3 },
    { arbitrary: fieldOf(schema), weight: 1 },
    nearMiss,
  );
};

/**
 * A valid request but for one field, which is a near miss or anything of its shape: so bad
 * values get past the other fields' checks, into the service and the database.
 */
const validButOne = (schema: z.ZodType, valid: () => Record<string, unknown>) => {
  const shape = defOf(schema).shape!;
  return fc
    .tuple(
      fc.constantFrom(...Object.keys(shape)),
      fc.oneof(nearMiss, fc.constant(undefined)),
      fc.boolean(),
    )
    .chain(([key, miss, shapedValue]) =>
      (shapedValue ? shaped(shape[key]!) : fc.constant(miss)).map((value) => ({
        ...valid(),
        [key]: value,
      })),
    );
};

const asQuery = (input: unknown) =>
  Object.fromEntries(
    Object.entries(input as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );

const CJK = /[\u4e00-\u9fff]/;
/** No 5xx; a refusal is the 0400 envelope with a Chinese message. */
const expectHandled = (reply: { status: number; body: { code: string; msg: string } | null }) => {
  expect(reply.status).toBeLessThan(500);
  if (reply.status === 400) {
    expect(reply.body?.code).toBe('0400');
    expect(reply.body?.msg).toMatch(CJK);
  }
};

const RUNS = { numRuns: 200, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) };

describe('inputs generated from every contract request schema', () => {
  it.each([
    [devicesApi.machineList.path, machineListQuery],
    [devicesApi.processMenu.path, processAndCountQuery],
  ] as const)('GET %s answers no 5xx', async (path, schema) => {
    const phone = api(server.baseUrl, keyId);
    await fc.assert(
      fc.asyncProperty(inputOf(schema), async (input) => {
        expectHandled(
          await phone.get(path, typeof input === 'object' && input ? asQuery(input) : {}),
        );
      }),
      RUNS,
    );
  });

  it.each([
    [identityApi.wechatBindUser.path, wechatBindUserBody],
    [identityApi.dingdingBindUser.path, dingdingBindUserBody],
  ] as const)('POST %s answers no 5xx', async (path, schema) => {
    const phone = api(server.baseUrl);
    await fc.assert(
      fc.asyncProperty(inputOf(schema), async (body) => {
        expectHandled(await phone.post(path, body ?? null));
      }),
      { ...RUNS, numRuns: 40 },
    );
  });

  it.each([
    [facaApi.facaInfoPage.path, facaPageQuery],
    [facaApi.getFacaById.path, facaByIdQuery],
    [facaApi.getWorkmanshipPage.path, optionsQuery],
    [facaApi.getInfluenceParametersPage.path, optionsQuery],
    [facaApi.getHandlerList.path, handlerListQuery],
    [facaApi.taskPage.path, taskPageQuery],
    [facaApi.getFacaInfoIds.path, caIdQuery],
    [mediaPaths.hdImage, mediaQuery],
    [mediaPaths.thumbnail, mediaQuery],
  ] as const)('GET %s (FACA) answers no 5xx', async (path, schema) => {
    const phone = api(server.baseUrl, keyId);
    await fc.assert(
      fc.asyncProperty(inputOf(schema), async (input) => {
        expectHandled(
          await phone.get(path, typeof input === 'object' && input ? asQuery(input) : {}),
        );
      }),
      { ...RUNS, numRuns: 60 },
    );
  });

  it.each([
    [facaApi.addOrUpdateFacaInfo.path, facaInfoBody, () => faca.question],
    [facaApi.addOrUpdateFaInfo.path, faInfoBody, () => faca.fa],
    [facaApi.addOrUpdateCaInfo.path, caInfoBody, () => faca.ca],
    [facaApi.submitTask.path, taskResultBody, () => faca.task],
  ] as const)('POST %s (FACA) answers no 5xx', async (path, schema, valid) => {
    const phone = api(server.baseUrl, keyId);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: validButOne(schema, valid), weight: 3 }, inputOf(schema)),
        async (body) => {
          expectHandled(await phone.post(path, body ?? null));
        },
      ),
      { ...RUNS, numRuns: 80 },
    );
  });

  it('the real-time socket never fails with an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(inputOf(realtimeClientMessage), async (message) => {
        const socket = openSocket(server.wsUrl, sockets.realtime.path(sn), {
          headers: { cookie: `${KEY_ID_COOKIE}=${keyId}` },
        });
        try {
          await socket.opened;
          socket.send(message);
          socket.send({ SN: sn, MsgType: 'machineFunction', machineFunctionName: 'machineList' });
          // Either refused (closed with our code) or answered: never 1011 (server error).
          const outcome = await Promise.race([
            socket.closed,
            socket.waitForMessage(() => true).then(() => null),
          ]);
          if (outcome) expect(outcome.code).not.toBe(1011);
        } finally {
          socket.close();
        }
      }),
      { ...RUNS, numRuns: 20 },
    );
    const health = await fetch(`${server.baseUrl}${telemetryApi.health.path}`);
    expect(health.status).toBe(200);
  });
});
