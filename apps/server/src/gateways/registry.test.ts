import type { GatewayCredential, GatewayRow } from '@linewatch/contracts/gateways';
import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const SERIAL = `RG${String(Date.now() % 1e10).padStart(10, '0')}`;

describe('the gateway registry', () => {
  let server: TestServer;
  let adminKeyId: string;
  let userKeyId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const make = factories(server.linewatch);
    const admin = await make.createUser({ isAdmin: true });
    const user = await make.createUser();
    adminKeyId = await login(server.baseUrl, admin.psnCode, admin.password);
    userKeyId = await login(server.baseUrl, user.psnCode, user.password);
  });
  afterAll(() => server?.close());

  /** Whether the broker takes this credential (the embedded broker; an external one has its own). */
  const signsIn = async (credential: GatewayCredential) => {
    try {
      const client = await connectGateway(server.mqttUrl, {
        id: credential.serial,
        secret: credential.secret,
      });
      await client.close();
      return true;
    } catch (error) {
      // CONNACK 4: bad username or password.
      expect(String(error)).toMatch(/Bad username or password|Not authorized/i);
      return false;
    }
  };

  it('registers a 12-character serial once, for admins only', async () => {
    const admin = api(server.baseUrl, adminKeyId);
    const bad = await admin.post(gatewaysApi.adminRegister.path, { serial: 'SHORT' });
    expect(bad.body).toMatchObject({ code: '0400', msg: '请输入正确的网关序列号' });
    const user = await api(server.baseUrl, userKeyId).post(gatewaysApi.adminRegister.path, {
      serial: SERIAL,
    });
    expect(user.body.code).toBe('0403');

    const created = await admin.post<GatewayCredential>(gatewaysApi.adminRegister.path, {
      serial: SERIAL,
    });
    expect(created.body.data.serial).toBe(SERIAL);
    expect(created.body.data.secret.length).toBeGreaterThanOrEqual(32);
    const again = await admin.post(gatewaysApi.adminRegister.path, { serial: SERIAL });
    expect(again.body).toMatchObject({ code: '0410', msg: '网关已登记' });

    const list = await admin.get<GatewayRow[]>(gatewaysApi.adminList.path);
    expect(list.body.data.find((g) => g.serial === SERIAL)).toMatchObject({
      online: false,
      machines: [],
    });
    expect((await api(server.baseUrl, userKeyId).get(gatewaysApi.adminList.path)).body.code).toBe(
      '0403',
    );
  });

  it.skipIf(Boolean(process.env.MQTT_URL))(
    'rotates a credential: the old session is ended, the broker takes the new secret and refuses the old one',
    async () => {
      const admin = api(server.baseUrl, adminKeyId);
      const serial = `RT${String(Date.now() % 1e10).padStart(10, '0')}`;
      const first = (
        await admin.post<GatewayCredential>(gatewaysApi.adminRegister.path, { serial })
      ).body.data;
      expect(await signsIn(first)).toBe(true);
      // A gateway signed in with the old secret is thrown off (it must sign in again).
      const session = await connectGateway(server.mqttUrl, { id: serial, secret: first.secret });
      const ended = new Promise<void>((resolve) => session.client.once('close', () => resolve()));
      const rotated = await admin.post<GatewayCredential>(gatewaysApi.adminRotate.path, {
        serial,
      });
      expect(rotated.body.data.secret).not.toBe(first.secret);
      await ended;
      await session.close();
      expect(await signsIn(rotated.body.data)).toBe(true);
      expect(await signsIn(first)).toBe(false);
      const unknown = await admin.post(gatewaysApi.adminRotate.path, { serial: 'NOSUCHGW0000' });
      expect(unknown.body).toMatchObject({ code: '0404', msg: '网关不存在' });
      // In the audit log the admin pages show.
      const audit = await server.linewatch.database.db
        .selectFrom('audit_log')
        .select('action')
        .where('target', '=', `gateway:${serial}`)
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['gateway.register', 'gateway.rotate']);
    },
  );
});
