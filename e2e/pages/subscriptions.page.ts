import type { Locator, Page } from 'playwright-core';
import { waitUntilSettled } from '../support/settle.ts';

/** /subscription: the machines with their figures, swipe to edit or delete, multi-select. */
export class SubscriptionListPage {
  readonly rows: Locator;
  readonly selectMode: Locator;
  readonly selectAll: Locator;
  readonly batchSet: Locator;
  readonly batchCancel: Locator;

  constructor(private readonly page: Page) {
    this.rows = page.getByTestId('subscription-row');
    this.selectMode = page.getByTestId('subscription-select-mode');
    this.selectAll = page.getByTestId('subscription-select-all');
    this.batchSet = page.getByTestId('subscription-batch-set');
    this.batchCancel = page.getByTestId('subscription-batch-cancel');
  }

  async waitUntilLoaded(): Promise<void> {
    await this.rows.first().waitFor();
  }

  row(sn: string): Locator {
    return this.page.locator(`[data-testid="subscription-row"][data-sn="${sn}"]`);
  }

  /** Drags a row to the left, as a thumb does, until its 编辑 / 删除 buttons show. */
  async swipe(sn: string): Promise<void> {
    // A row below the fold would be dragged outside the viewport.
    await this.row(sn).scrollIntoViewIfNeeded();
    const box = (await this.row(sn).boundingBox())!;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width - 10, y);
    await this.page.mouse.down();
    for (let i = 1; i <= 10; i++) await this.page.mouse.move(box.x + box.width - 10 - i * 20, y);
    await this.page.mouse.up();
    await waitUntilSettled(this.action(sn, '编辑'));
  }

  /** A swipe button of one row (every row has its own, hidden until swiped). */
  action(sn: string, name: '编辑' | '删除'): Locator {
    return this.row(sn)
      .locator('xpath=ancestor::div[contains(@class,"adm-swipe-action")][1]')
      .locator('.adm-swipe-action-actions-right .adm-button', { hasText: name });
  }
}

/** /followSetting: a machine's (or a batch's) subscription settings. */
export class FollowSettingPage {
  readonly machines: Locator;
  readonly alarm: Locator;
  readonly reminder: Locator;
  readonly duration: Locator;
  readonly statistics: Locator;
  readonly save: Locator;

  constructor(private readonly page: Page) {
    this.machines = page.getByTestId('follow-machines');
    this.alarm = page.getByTestId('follow-alarm');
    this.reminder = page.getByTestId('follow-reminder');
    this.duration = page.getByTestId('follow-duration');
    this.statistics = page.getByTestId('follow-statistics');
    this.save = page.getByTestId('follow-save');
  }

  async waitUntilShown(): Promise<void> {
    await this.save.waitFor();
  }

  isOn(toggle: Locator): Promise<boolean> {
    return toggle.evaluate((node) => node.classList.contains('adm-switch-checked'));
  }

  checked(testId: string): Promise<boolean> {
    return this.page.getByTestId(testId).locator('input').isChecked();
  }

  /** Opens the duration picker and confirms the hours and minutes shown first (0 h 5 min from 0 h 0 min). */
  async chooseDuration(minutesSteps: number): Promise<void> {
    await this.duration.tap();
    const picker = this.page.locator('.adm-picker');
    await waitUntilSettled(picker);
    const minutes = picker.locator('.adm-picker-view-column').nth(1);
    const box = (await minutes.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x, y - 34 * minutesSteps, { steps: 8 });
    await this.page.mouse.up();
    await this.page.waitForTimeout(400);
    await picker.getByText('确定').tap();
    await picker.waitFor({ state: 'detached' });
  }
}
