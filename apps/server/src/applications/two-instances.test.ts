import {
  applicationMessages,
  VERIFICATION,
  type SmsMessage,
} from '@linewatch/contracts/applications';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../foundation/http/envelope.ts';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import {
  dropSchema,
  externalDatabaseUrl,
  startTestServer,
  uniqueSchema,
  type TestServer,
} from '../test/test-server.ts';
import { createApplicationsRepository } from './repository.ts';
import { createApplicationsService } from './service.ts';
import { createEmbeddedSmsChannel } from './sms.ts';

// Verification codes, their expiry, single use and the per-phone throttle live in the database,
// so they hold however many server instances answer the applicants.

let seq = 0;
const newMobile = () =>
  `137${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++).padStart(3, '0')}`;
const codeIn = (messages: { mobile: string; text: string }[], mobile: string) =>
  /(\d{6})/.exec(messages.find((m) => m.mobile === mobile)?.text ?? '')?.[1] ?? '';

// Two real servers can share only PostgreSQL (the embedded database is one process's): this
// part runs with DATABASE_URL, as the CI's second pass does.
describe.skipIf(!externalDatabaseUrl)('two server instances on one PostgreSQL', () => {
  const schema = uniqueSchema();
  let a: TestServer;
  let b: TestServer;
  let adminOfB: ReturnType<typeof api>;

  beforeAll(async () => {
    a = await startTestServer({ DATABASE_SCHEMA: schema });
    b = await startTestServer({ DATABASE_SCHEMA: schema });
    const admin = await factories(a.linewatch).createUser({ isAdmin: true });
    adminOfB = api(b.baseUrl, await login(b.baseUrl, admin.psnCode, admin.password));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (externalDatabaseUrl) await dropSchema(externalDatabaseUrl, schema);
  });

  it('a code sent by one is shown, throttled, taken once and expired by the other', async () => {
    const mobile = newMobile();
    const sent = await api(a.baseUrl).post(applicationsApi.sendCode.path, { mobile });
    expect(sent.body.code).toBe('0000');
    // The admin screen of the other instance shows it (the embedded channel's outbox).
    const outbox = await adminOfB.get<SmsMessage[]>(applicationsApi.smsOutbox.path);
    const code = codeIn(outbox.body.data, mobile);
    expect(code).toMatch(/^\d{6}$/);

    const again = await api(b.baseUrl).post(applicationsApi.sendCode.path, { mobile });
    expect(again.body).toMatchObject({ code: '0410', msg: applicationMessages.sendTooSoon });

    const form = { name: '郑十', psnCode: `E2I${seq}`, mobile, code };
    expect((await api(b.baseUrl).post(applicationsApi.apply.path, form)).body.code).toBe('0000');
    const replay = await api(a.baseUrl).post(applicationsApi.apply.path, {
      ...form,
      psnCode: `E2J${seq}`,
    });
    expect(replay.body).toMatchObject({ code: '0410', msg: applicationMessages.codeInvalid });

    // An expired code is refused by either.
    const late = newMobile();
    await api(b.baseUrl).post(applicationsApi.sendCode.path, { mobile: late });
    const lateCode = codeIn(
      (await adminOfB.get<SmsMessage[]>(applicationsApi.smsOutbox.path)).body.data,
      late,
    );
    await a.linewatch.database.db
      .updateTable('verification_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('mobile', '=', late)
      .execute();
    const expired = await api(a.baseUrl).post(applicationsApi.apply.path, {
      name: '郑十',
      psnCode: `E2K${seq}`,
      mobile: late,
      code: lateCode,
    });
    expect(expired.body).toMatchObject({ code: '0410', msg: applicationMessages.codeInvalid });
  });

  it('asked at once by both for the same phone, only one sends a code', async () => {
    const mobile = newMobile();
    const replies = await Promise.all(
      [a, b, a, b, a, b].map((s) => api(s.baseUrl).post(applicationsApi.sendCode.path, { mobile })),
    );
    expect(replies.map((r) => r.body.code).sort()).toEqual([
      '0000',
      '0410',
      '0410',
      '0410',
      '0410',
      '0410',
    ]);
  });
});

describe('two applications services (two instances’ state) on one database', () => {
  let server: TestServer;
  const silent = { info: () => undefined };
  const instance = () => {
    const db = server.linewatch.database.db;
    const sms = createEmbeddedSmsChannel(db, silent);
    return { service: createApplicationsService(createApplicationsRepository(db), sms), sms };
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('share the outbox, the throttle, single use and the five guesses', async () => {
    const [one, two] = [instance(), instance()];
    const mobile = newMobile();
    const sends = await Promise.allSettled(
      [one, two, one, two].map((i) => i.service.sendCode(mobile, '127.0.0.1')),
    );
    expect(sends.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    for (const s of sends)
      if (s.status === 'rejected') expect(s.reason).toBeInstanceOf(DomainError);
    const code = codeIn(await two.sms.recent(), mobile);
    expect(code).toBe(codeIn(await one.sms.recent(), mobile));

    const wrong = code === '000000' ? '000001' : '000000';
    const form = { name: '王五', psnCode: `E2S${seq}`, mobile };
    const guesses = await Promise.allSettled(
      Array.from({ length: VERIFICATION.maxAttempts }, (_, i) =>
        (i % 2 ? one : two).service.apply({ ...form, code: wrong }),
      ),
    );
    expect(guesses.every((g) => g.status === 'rejected')).toBe(true);
    // Five wrong guesses across both void the code, even for the right one.
    await expect(one.service.apply({ ...form, code })).rejects.toThrow(
      applicationMessages.codeInvalid,
    );

    const other = newMobile();
    await two.service.sendCode(other, '127.0.0.1');
    const good = codeIn(await one.sms.recent(), other);
    await one.service.apply({ name: '王五', psnCode: `E2T${seq}`, mobile: other, code: good });
    await expect(
      two.service.apply({ name: '王五', psnCode: `E2U${seq}`, mobile: other, code: good }),
    ).rejects.toThrow(applicationMessages.codeInvalid);
  });
});
