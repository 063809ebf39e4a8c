import cookie from '@fastify/cookie';
import { messages, ReplyCode } from '@linewatch/contracts/envelope';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../core/device-registry.ts';
import { createDevicesRepository } from '../devices/repository.ts';
import { createDevicesService } from '../devices/service.ts';
import { ok } from '../foundation/http/envelope.ts';
import { createIdentityRepository } from '../identity/repository.ts';
import { createIdentityService } from '../identity/service.ts';
import { factories } from '../test/factories.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { authPlugin } from './auth.ts';
import { securityPlugin } from './security.ts';
import { requireMachine, visibilityPlugin } from './visibility.ts';
import { emptyFigures } from '../foundation/shared/metrics.ts';

// requireMachine on a small server of its own: the real auth, security and visibility plugins
// and the real identity and devices services on a real database, and two machine-scoped routes
// (SN in the path, SN in the query), as the monitoring routes will use it.

let testDb: TestDb;
let app: FastifyInstance;
let visible: string;
let hidden: string;
let operatorKey: string;
let adminKey: string;

beforeAll(async () => {
  testDb = await openTestDb();
  const { db } = testDb;
  const f = factories(db);
  const mine = await f.createLine();
  const other = await f.createLine();
  visible = await f.createDevice({ line: mine });
  hidden = await f.createDevice({ line: other });
  const operator = await f.createUser({ lines: [mine] });
  const admin = await f.createUser({ isAdmin: true });

  const identity = createIdentityService(createIdentityRepository(db), 3_600_000);
  const registry = new DeviceRegistry(db);
  await registry.reload();
  const devices = createDevicesService({
    repo: createDevicesRepository(db),
    live: { statusOf: () => 'offLine', todayOf: () => emptyFigures() },
    isGatewayOnline: () => false,
    registry,
    timeZone: 'Asia/Shanghai',
  });
  const signIn = async (u: { psnCode: string; password: string }) =>
    (
      await identity.login({
        psnCode: u.psnCode,
        passWord: encryptPassword(u.password),
        address: '127.0.0.1',
      })
    ).keyId;
  operatorKey = await signIn(operator);
  adminKey = await signIn(admin);

  app = Fastify();
  await app.register(cookie);
  await app.register(securityPlugin, { publicUrl: undefined });
  await app.register(authPlugin, { sessions: identity });
  await app.register(visibilityPlugin, { checkMachine: devices.checkMachine });
  app.get<{ Params: { snCode: string } }>(
    '/api/test/machine/:snCode',
    { preHandler: requireMachine('snCode') },
    async (request) => ok({ sn: request.machine?.sn, lineId: request.machine?.lineId }),
  );
  app.get('/api/test/machine', { preHandler: requireMachine('snCode') }, async (request) =>
    ok({ sn: request.machine?.sn }),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await testDb?.close();
});

const get = async (url: string, keyId?: string) => {
  const reply = await app.inject({
    method: 'GET',
    url,
    headers: keyId ? { [KEY_ID_HEADER]: keyId } : {},
  });
  return { status: reply.statusCode, body: reply.json<Record<string, unknown>>() };
};

describe('requireMachine', () => {
  it('puts a machine the user may see on the request (SN in the path or the query)', async () => {
    expect(await get(`/api/test/machine/${visible}`, operatorKey)).toMatchObject({
      status: 200,
      body: { success: true, code: ReplyCode.ok, data: { sn: visible } },
    });
    expect(await get(`/api/test/machine?snCode=${visible}`, operatorKey)).toMatchObject({
      status: 200,
      body: { data: { sn: visible } },
    });
  });

  it('answers 0403 for a machine on a line the user was not granted', async () => {
    for (const url of [`/api/test/machine/${hidden}`, `/api/test/machine?snCode=${hidden}`]) {
      expect(await get(url, operatorKey)).toEqual({
        status: 403,
        body: { success: false, code: ReplyCode.forbidden, msg: messages.forbidden, data: null },
      });
    }
  });

  it('answers 0404 for an SN no machine has, or none given', async () => {
    for (const url of ['/api/test/machine/SN-NOBODY-HAS', '/api/test/machine']) {
      expect(await get(url, operatorKey)).toEqual({
        status: 404,
        body: { success: false, code: ReplyCode.notFound, msg: messages.notFound, data: null },
      });
    }
  });

  it('lets an admin see every line', async () => {
    expect(await get(`/api/test/machine/${hidden}`, adminKey)).toMatchObject({
      status: 200,
      body: { data: { sn: hidden } },
    });
  });

  it('comes after sign-in: no keyId is 0405 whatever the machine', async () => {
    expect(await get(`/api/test/machine/${hidden}`)).toMatchObject({
      status: 401,
      body: { code: ReplyCode.notSignedIn },
    });
  });
});
