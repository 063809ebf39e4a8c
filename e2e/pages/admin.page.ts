import type { Locator, Page } from 'playwright-core';
import { Toast } from './toast.ts';
import { waitUntilSettled } from '../support/settle.ts';

/** /userApply and /userAudit: the account application and its progress. */
export class ApplyPage {
  readonly toast: Toast;
  readonly sendCode: Locator;
  readonly auditPage: Locator;

  constructor(private readonly page: Page) {
    this.toast = new Toast(page);
    this.sendCode = page.getByTestId('apply-send-code');
    this.auditPage = page.getByTestId('audit-page');
  }

  private input(testId: string): Locator {
    return this.page.getByTestId(testId).locator('input');
  }

  async waitUntilShown(): Promise<void> {
    await this.page.getByTestId('apply-submit').waitFor();
  }

  async fill(form: { name: string; psnCode: string; mobile: string }): Promise<void> {
    await this.input('apply-name').fill(form.name);
    await this.input('apply-psn').fill(form.psnCode);
    await this.input('apply-mobile').fill(form.mobile);
  }

  async sendCodeLabel(): Promise<string> {
    return ((await this.sendCode.textContent()) ?? '').trim();
  }

  async submitWithCode(code: string): Promise<void> {
    await this.input('apply-code').fill(code);
    await this.page.getByTestId('apply-submit').tap();
  }

  async auditStatus(): Promise<string | null> {
    await this.auditPage.waitFor();
    return this.auditPage.getAttribute('data-status');
  }

  account(): Locator {
    return this.page.getByTestId('audit-account');
  }
}

/** The admin pages (/admin/…), reached from the centre's 管理. */
export class AdminPages {
  readonly toast: Toast;
  readonly centreAdmin: Locator;
  readonly importReport: Locator;
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.toast = new Toast(page);
    this.centreAdmin = page.getByTestId('center-admin');
    this.importReport = page.getByTestId('import-report');
    this.dialog = page.locator('.adm-dialog-body');
  }

  async openFromHome(link: 'users' | 'applications' | 'lines' | 'machines' | 'audit') {
    await this.page.getByTestId(`admin-link-${link}`).tap();
    await this.page.getByTestId(`admin-${link}`).waitFor();
  }

  async waitForHome(): Promise<void> {
    await this.page.getByTestId('admin-home').waitFor();
  }

  async back(): Promise<void> {
    await this.page.getByRole('img', { name: '返回' }).tap();
    await this.waitForHome();
  }

  row(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  /** Approves an application, granting the named line; resolves with the dialog's text. */
  async approve(psnCode: string, line: string): Promise<string> {
    await this.row(`application-${psnCode}`).getByTestId('application-approve').tap();
    await waitUntilSettled(this.page.locator('.adm-popup-body'));
    await this.page.getByTestId('line-selector').getByText(line, { exact: true }).tap();
    await this.page.getByTestId('approve-confirm').tap();
    await waitUntilSettled(this.dialog);
    return ((await this.dialog.textContent()) ?? '').trim();
  }

  async closeDialog(): Promise<void> {
    await this.dialog.getByRole('button').first().tap();
    await this.dialog.waitFor({ state: 'detached' });
  }

  async importSheet(file: { name: string; mimeType: string; buffer: Buffer }): Promise<string> {
    await this.page.getByTestId('machine-import-file').setInputFiles(file);
    await this.importReport.waitFor();
    return ((await this.importReport.textContent()) ?? '').trim();
  }

  async auditEntries(): Promise<number> {
    await this.page.getByTestId('audit-entry').first().waitFor();
    return this.page.getByTestId('audit-entry').count();
  }
}
