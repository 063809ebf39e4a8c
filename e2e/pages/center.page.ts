import type { Locator, Page } from 'playwright-core';
import { waitUntilSettled } from '../support/settle.ts';

/** /center, the personal center: nickname, bind / unbind / settings, log out. */
export class CenterPage {
  readonly nickname: Locator;
  readonly logoutItem: Locator;
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.nickname = page.getByTestId('center-nickname');
    this.logoutItem = page.getByTestId('logout');
    this.dialog = page.locator('.adm-dialog-body');
  }

  /** The unread count on the 个人中心 tab ('' when there is none). */
  async tabBadge(): Promise<string> {
    const badge = this.page.getByTestId('tab-center').locator('.adm-badge-content');
    return (await badge.count()) ? ((await badge.textContent()) ?? '').trim() : '';
  }

  /** The unread count on the 消息 row ('' when there is none). */
  async messagesBadge(): Promise<string> {
    const badge = this.page.getByTestId('center-messages-unread');
    return (await badge.count()) ? ((await badge.textContent()) ?? '').trim() : '';
  }

  async waitUntilShown(): Promise<void> {
    await this.logoutItem.waitFor();
  }

  async nicknameText(): Promise<string> {
    return ((await this.nickname.textContent()) ?? '').trim();
  }

  /** Taps 退出登录 and waits for the confirmation dialog. */
  async askToLogOut(): Promise<void> {
    await this.logoutItem.tap();
    await waitUntilSettled(this.dialog);
    await waitUntilSettled(this.page.locator('.adm-dialog .adm-mask'));
  }

  async dialogText(): Promise<string> {
    return ((await this.dialog.locator('.adm-dialog-content').textContent()) ?? '').trim();
  }

  async confirmLogOut(): Promise<void> {
    await this.dialog.getByRole('button', { name: '确定' }).tap();
  }
}
