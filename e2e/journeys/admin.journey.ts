import { applicationsApi } from '@linewatch/contracts/applications-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import ExcelJS from 'exceljs';
import { describe, expect, inject, it } from 'vitest';
import { AdminPages, ApplyPage } from '../pages/admin.page.ts';
import { CenterPage } from '../pages/center.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { IN_APP_USER_AGENTS } from '../support/browser.ts';
import { useJourney } from '../support/journey.ts';
import { paths } from '../support/app-paths.ts';

const applicant = { name: '周八', psnCode: 'E-JOURNEY-1', mobile: '13812345678' };

/** What the embedded SMS channel showed on the admin screen, read as an admin would. */
const smsTo = async (mobile: string): Promise<string> => {
  const baseUrl = inject('baseUrl');
  const signIn = await fetch(baseUrl + identityApi.wechatBindUser.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ psnCode: 'admin', passWord: encryptPassword('Admin@2026') }),
  });
  const { data } = (await signIn.json()) as { data: { keyId: string } };
  const outbox = await fetch(baseUrl + applicationsApi.smsOutbox.path, {
    headers: { [KEY_ID_HEADER]: data.keyId },
  });
  const sent = (await outbox.json()) as { data: { mobile: string; text: string }[] };
  return sent.data.find((m) => m.mobile === mobile)?.text ?? '';
};

/** A sheet as an admin fills it in: the second machine names a line that does not exist. */
const badSheet = async () => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('机台');
  sheet.addRow(['SN码', '设备名称', '产线', 'PPM目标', '良率目标(%)']);
  sheet.addRow(['NEW-001', '新冲压机', 'SMT一线', 60, 98]);
  sheet.addRow(['NEW-002', '新冲压机', '不存在的产线', 60, 98]);
  sheet.addRow(['NEW-003', '新冲压机', 'SMT一线', 60, 150]);
  return {
    name: 'machines.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
};

// Inside WeChat, where the factory's people open the app: the applicant's pages are public, the
// admin signs in through WeChat's authorisation and binds their WeChat account once.
describe('administration: someone applies for an account and an admin sets them up', () => {
  const journey = useJourney('admin', { userAgent: IN_APP_USER_AGENTS.wechat });

  it('fills in the application and asks for a code: the button counts down', async () => {
    const apply = new ApplyPage(journey.page);
    await journey.page.goto(paths.userApply);
    await apply.waitUntilShown();
    await journey.shot(journey.page, 'apply-empty');
    await apply.fill(applicant);
    await apply.sendCode.tap();
    await expect.poll(() => apply.sendCodeLabel()).toMatch(/^\d+秒后重发$/);
    await apply.toast.waitUntilShown();
    await journey.shot(journey.page, 'apply-code-sent');
    await apply.toast.waitUntilGone();
  });

  it('submits with the code and sees the application under review', async () => {
    const apply = new ApplyPage(journey.page);
    const code = /(\d{6})/.exec(await smsTo(applicant.mobile))?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await apply.submitWithCode(code);
    await expect.poll(() => apply.auditStatus()).toBe('pending');
    await apply.toast.waitUntilGone();
    await journey.shot(journey.page, 'audit-under-review');
  });

  it('an admin signs in and finds 管理 in the personal centre', async () => {
    await fetch(`${inject('wechatFakeUrl')}/__fake/user`, {
      method: 'POST',
      body: JSON.stringify({ openid: `o-admin-${Date.now().toString(36)}` }),
    });
    await journey.page.goto(paths.center);
    const login = new LoginPage(journey.page);
    await login.waitForForm();
    await expect.poll(() => login.binds()).toBe(true);
    await login.signIn('admin', 'Admin@2026');
    const centre = new CenterPage(journey.page);
    await centre.waitUntilShown();
    const admin = new AdminPages(journey.page);
    await admin.centreAdmin.waitFor();
    await login.toast.waitUntilGone();
    await journey.shot(journey.page, 'centre-with-admin');
    await admin.centreAdmin.tap();
    await admin.waitForHome();
    await journey.shot(journey.page, 'admin-home');
  });

  it('approves the application, granting a line, and is shown the initial password', async () => {
    const admin = new AdminPages(journey.page);
    await admin.openFromHome('applications');
    await admin.row(`application-${applicant.psnCode}`).waitFor();
    await journey.shot(journey.page, 'applications');
    const text = await admin.approve(applicant.psnCode, 'SMT一线');
    expect(text).toContain(applicant.psnCode);
    await journey.shot(journey.page, 'approved');
    await admin.closeDialog();
    await admin.back();
  });

  it('sees the users, the new one with their line', async () => {
    const admin = new AdminPages(journey.page);
    await admin.openFromHome('users');
    await admin.row(`user-${applicant.psnCode}`).waitFor();
    expect(await admin.row(`user-${applicant.psnCode}`).textContent()).toContain('SMT一线');
    await journey.shot(journey.page, 'users');
    await admin.back();
  });

  it('sees the lines with their product groups', async () => {
    const admin = new AdminPages(journey.page);
    await admin.openFromHome('lines');
    await admin.row('line-SMT一线').waitFor();
    await journey.shot(journey.page, 'lines');
    await admin.back();
  });

  it('imports a sheet with bad rows: each is reported by row number and nothing is written', async () => {
    const admin = new AdminPages(journey.page);
    await admin.openFromHome('machines');
    await admin.row('machine-item').first().waitFor();
    await journey.shot(journey.page, 'machines');
    const report = await admin.importSheet(await badSheet());
    expect(report).toContain('第3行：产线「不存在的产线」不存在');
    expect(report).toContain('第4行：百分比目标应在0到100之间');
    await admin.toast.waitUntilGone();
    await journey.shot(journey.page, 'import-report');
    await admin.back();
  });

  it('reads the audit log of the changes', async () => {
    const admin = new AdminPages(journey.page);
    await admin.openFromHome('audit');
    expect(await admin.auditEntries()).toBeGreaterThan(0);
    await journey.shot(journey.page, 'audit');
  });

  it('the applicant opens the progress page again: approved, with their account', async () => {
    const apply = new ApplyPage(journey.page);
    await journey.page.goto(paths.userAudit);
    await expect.poll(() => apply.auditStatus()).toBe('approved');
    expect(await apply.account().textContent()).toContain(applicant.psnCode);
    await journey.shot(journey.page, 'audit-approved');
  });
});
