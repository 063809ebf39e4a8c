import type { Locator, Page } from 'playwright-core';
import { Toast } from './toast.ts';
import { paths } from '../support/app-paths.ts';

/**
 * /login, both versions (messaging app, workplace chat): username, password with eye toggle,
 * login button; inside WeChat or DingTalk the form binds the messaging account it signs in with.
 */
export class LoginPage {
  readonly root: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly passwordToggle: Locator;
  readonly submitButton: Locator;
  readonly usernameError: Locator;
  readonly passwordError: Locator;
  readonly subtitle: Locator;
  /** 没有账号？申请账号 | 查看申请进度 */
  readonly applyLinks: Locator;
  readonly toast: Toast;

  constructor(private readonly page: Page) {
    this.root = page.getByTestId('login-page');
    // antd-mobile puts the test id on the input's wrapper.
    this.username = page.getByTestId('login-username').locator('input');
    this.password = page.getByTestId('login-password').locator('input');
    this.passwordToggle = page.getByTestId('login-password-toggle');
    this.submitButton = page.getByTestId('login-submit');
    this.usernameError = page.getByTestId('login-username-error');
    this.passwordError = page.getByTestId('login-password-error');
    this.subtitle = page.getByTestId('login-subtitle');
    this.applyLinks = page.getByTestId('login-apply');
    this.toast = new Toast(page);
  }

  async open(): Promise<void> {
    await this.page.goto(paths.login);
    await this.waitUntilShown();
  }

  async waitUntilShown(): Promise<void> {
    await this.root.waitFor();
  }

  /** The form is shown (not the silent sign-in's 正在登录). */
  async waitForForm(): Promise<void> {
    await this.submitButton.waitFor();
  }

  /** 'wechat' or 'dingtalk': which version of the page is shown. */
  async client(): Promise<string | null> {
    return this.root.getAttribute('data-client');
  }

  /** Whether signing in will bind the messaging account the platform named. */
  async binds(): Promise<boolean> {
    return (await this.root.getAttribute('data-binding')) === 'true';
  }

  async subtitleText(): Promise<string> {
    return ((await this.subtitle.textContent()) ?? '').trim();
  }

  async fill(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
  }

  async submit(): Promise<void> {
    await this.submitButton.tap();
  }

  async signIn(username: string, password: string): Promise<void> {
    await this.fill(username, password);
    await this.submit();
  }

  /** Someone without an account taps 申请账号. */
  async openApplication(): Promise<void> {
    await this.page.getByTestId('login-apply-link').tap();
  }

  async togglePasswordVisibility(): Promise<void> {
    await this.passwordToggle.tap();
  }

  async passwordInputType(): Promise<string | null> {
    return this.password.getAttribute('type');
  }
}
