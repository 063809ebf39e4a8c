import { adminApi } from '@linewatch/contracts/admin-api';
import type { AdminApplication, AdminLine, ApproveReply } from '@linewatch/contracts/admin';
import { adminMessages } from '@linewatch/contracts/admin';
import {
  applicationMessages,
  VERIFICATION,
  type ApplicationProgress,
  type SmsMessage,
} from '@linewatch/contracts/applications';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../test/http.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let admin: ReturnType<typeof api>;
const phone = () => api(server.baseUrl);
let seq = 0;
/** A phone number no other test of this file uses (the throttle is per phone). */
const newMobile = () =>
  `139${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++).padStart(3, '0')}`;

beforeAll(async () => {
  server = await startTestServer();
  const first = await factories(server.linewatch).createUser({ isAdmin: true });
  admin = api(server.baseUrl, await login(server.baseUrl, first.psnCode, first.password));
});
afterAll(() => server?.close());

/** The embedded SMS channel shows what it sent on the admin screen: read the code there. */
const lastSms = async (mobile: string) => {
  const outbox = await admin.get<SmsMessage[]>(applicationsApi.smsOutbox.path);
  expect(outbox.status).toBe(200);
  return outbox.body.data.find((m) => m.mobile === mobile)?.text ?? '';
};
const codeSentTo = async (mobile: string) => {
  const reply = await phone().post(applicationsApi.sendCode.path, { mobile });
  expect(reply.body, reply.text).toMatchObject({
    code: '0000',
    data: { retryAfterSeconds: VERIFICATION.resendAfterSeconds },
  });
  return /(\d{6})/.exec(await lastSms(mobile))![1]!;
};

const apply = (form: { name: string; psnCode: string; mobile: string; code: string }) =>
  phone().post<{ token: string }>(applicationsApi.apply.path, form);

/** An application filed from a new phone, as the applicant (token) and the admins (id) know it. */
const pendingApplication = async (name: string, psnCode: string) => {
  const mobile = newMobile();
  const { token } = (await apply({ name, psnCode, mobile, code: await codeSentTo(mobile) })).body
    .data;
  const applications = await admin.get<AdminApplication[]>(adminApi.applications.path);
  const id = applications.body.data.find((a) => a.psnCode === psnCode)!.id;
  return { token, id, mobile };
};

const progress = async (token: string) =>
  (await phone().post<ApplicationProgress>(applicationsApi.progress.path, { token })).body;

describe('account application', () => {
  it('goes from apply to approval to sign-in, with the applicant seeing each step', async () => {
    const mobile = newMobile();
    const code = await codeSentTo(mobile);
    const submitted = await apply({ name: '李四', psnCode: 'E10086', mobile, code });
    expect(submitted.body).toMatchObject({ code: '0000', msg: applicationMessages.submitted });
    const { token } = submitted.body.data;

    expect(await progress(token)).toMatchObject({
      code: '0000',
      data: { name: '李四', psnCode: 'E10086', status: 'pending', decidedAt: null },
    });
    expect((await progress(token)).data.mobile).toBe(`${mobile.slice(0, 3)}****${mobile.slice(7)}`);

    const line = (await admin.post<AdminLine>(adminApi.saveLine.path, { name: '申请线' })).body
      .data;
    const sn = 'APPLY-1';
    await admin.post(adminApi.createMachine.path, {
      snCode: sn,
      deviceName: '设备',
      lineId: line.id,
    });
    const pending = (await admin.get<AdminApplication[]>(adminApi.applications.path)).body.data;
    const mine = pending.find((a) => a.psnCode === 'E10086')!;
    expect(mine).toMatchObject({ status: 'pending', mobile });

    const approved = await admin.post<ApproveReply>(adminApi.approve.path, {
      id: mine.id,
      lineIds: [line.id],
    });
    expect(approved.body.code, approved.text).toBe('0000');
    const { initialPassword } = approved.body.data;
    // The applicant is told their account by SMS.
    expect(await lastSms(mobile)).toContain(initialPassword);
    expect(await progress(token)).toMatchObject({ data: { status: 'approved' } });

    const key = await login(server.baseUrl, 'E10086', initialPassword);
    const list = await api(server.baseUrl, key).get<MachineListReply>(devicesApi.machineList.path);
    expect(list.body.data.data.map((d) => d.snCode)).toEqual([sn]);

    const twice = await admin.post(adminApi.approve.path, { id: mine.id, lineIds: [] });
    expect(twice.body).toMatchObject({ code: '0400', msg: adminMessages.applicationDecided });
    // The account exists now: a new application for it is refused.
    const again = await apply({
      name: '李四',
      psnCode: 'E10086',
      mobile,
      code: await codeSentToLater(mobile),
    });
    expect(again.body).toMatchObject({ code: '0410', msg: applicationMessages.accountExists });
  });

  it('shows a rejection with its reason', async () => {
    const { token, id } = await pendingApplication('王五', 'E20001');
    const rejected = await admin.post(adminApi.reject.path, { id, reason: '非本厂员工' });
    expect(rejected.body.code).toBe('0000');
    expect(await progress(token)).toMatchObject({
      data: { status: 'rejected', reason: '非本厂员工' },
    });
    expect((await progress('no-such-token')).code).toBe('0404');
  });

  it('makes no account when its decision cannot be written: the two commit together or not at all', async () => {
    const { token, id, mobile } = await pendingApplication('赵六', 'E20002');
    // The database refuses to write any decision (applications' table, applications' write)
    // while users' insert of the account has already run in the same transaction.
    const db = server.linewatch.database.db;
    await sql`CREATE FUNCTION lw_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`.execute(db);
    await sql`CREATE TRIGGER lw_test_refuse BEFORE UPDATE ON account_applications
      FOR EACH ROW EXECUTE FUNCTION lw_test_refuse()`.execute(db);
    try {
      const failed = await admin.post(adminApi.approve.path, { id, lineIds: [] });
      expect(failed.status, failed.text).toBe(500);
    } finally {
      await sql`DROP TRIGGER lw_test_refuse ON account_applications`.execute(db);
      await sql`DROP FUNCTION lw_test_refuse()`.execute(db);
    }
    const account = await db
      .selectFrom('users')
      .select('id')
      .where('psn_code', '=', 'E20002')
      .executeTakeFirst();
    expect(account).toBeUndefined();
    expect(await progress(token)).toMatchObject({ data: { status: 'pending' } });
    expect(await lastSms(mobile)).not.toContain('申请已通过');

    const approved = await admin.post<ApproveReply>(adminApi.approve.path, { id, lineIds: [] });
    expect(approved.body.code, approved.text).toBe('0000');
    expect(await progress(token)).toMatchObject({ data: { status: 'approved' } });
  });
});

/** The throttle allows one code a minute: a later test of the same phone reads the database. */
const codeSentToLater = async (mobile: string) => {
  await server.linewatch.database.db
    .updateTable('verification_codes')
    .set({ created_at: new Date(Date.now() - 61_000) })
    .where('mobile', '=', mobile)
    .execute();
  return codeSentTo(mobile);
};

describe('verification codes', () => {
  it('allows one code a minute and five an hour per phone', async () => {
    const mobile = newMobile();
    await codeSentTo(mobile);
    // Counted against the address that asked too (send-code-limits.test.ts).
    const sent = await server.linewatch.database.db
      .selectFrom('verification_codes')
      .select('address')
      .where('mobile', '=', mobile)
      .execute();
    expect(sent).toEqual([{ address: '127.0.0.1' }]);
    const soon = await phone().post(applicationsApi.sendCode.path, { mobile });
    expect(soon.status).toBe(409);
    expect(soon.body).toMatchObject({ code: '0410', msg: applicationMessages.sendTooSoon });
    expect((soon.body.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(50);
    // Another phone is not held back.
    await codeSentTo(newMobile());
    for (let i = 1; i < VERIFICATION.maxPerHour; i++) await codeSentToLater(mobile);
    await server.linewatch.database.db
      .updateTable('verification_codes')
      .set({ created_at: new Date(Date.now() - 10 * 60_000) })
      .where('mobile', '=', mobile)
      .execute();
    const sixth = await phone().post(applicationsApi.sendCode.path, { mobile });
    expect(sixth.body).toMatchObject({ code: '0410', msg: applicationMessages.sendTooSoon });
  });

  it('takes a code once, never for another phone, and voids it after five wrong guesses', async () => {
    const mobile = newMobile();
    const code = await codeSentTo(mobile);
    const other = newMobile();
    await codeSentTo(other);
    const wrongPhone = await apply({ name: '赵六', psnCode: 'E30001', mobile: other, code });
    // (1 in a million: the other phone's own code equals this one)
    expect(wrongPhone.body.code).toBe('0410');
    expect((await apply({ name: '赵六', psnCode: 'E30001', mobile, code })).body.code).toBe('0000');
    const replay = await apply({ name: '赵六', psnCode: 'E30002', mobile, code });
    expect(replay.body).toMatchObject({ code: '0410', msg: applicationMessages.codeInvalid });

    const guessed = newMobile();
    const right = await codeSentTo(guessed);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < VERIFICATION.maxAttempts; i++) {
      const reply = await apply({ name: '钱七', psnCode: 'E40001', mobile: guessed, code: wrong });
      expect(reply.body.msg).toBe(applicationMessages.codeInvalid);
    }
    const late = await apply({ name: '钱七', psnCode: 'E40001', mobile: guessed, code: right });
    expect(late.body).toMatchObject({ code: '0410', msg: applicationMessages.codeInvalid });
  });

  it('refuses bad input with the form messages', async () => {
    const cases: [string, unknown, string][] = [
      [applicationsApi.sendCode.path, { mobile: '12345' }, applicationMessages.mobileInvalid],
      [
        applicationsApi.apply.path,
        { name: '', psnCode: 'a', mobile: '13900000000', code: '123456' },
        applicationMessages.nameRequired,
      ],
      [
        applicationsApi.apply.path,
        { name: 'a', psnCode: '', mobile: '13900000000', code: '123456' },
        applicationMessages.psnCodeRequired,
      ],
      [
        applicationsApi.apply.path,
        { name: 'a', psnCode: 'b', mobile: '13900000000', code: '' },
        applicationMessages.codeRequired,
      ],
    ];
    for (const [path, body, msg] of cases) {
      const reply = await phone().post(path, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: '0400', msg });
    }
  });
});
