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

  /**
   * Swipes a row to the left with a finger, until its 编辑 / 删除 buttons show. antd-mobile's
   * SwipeAction follows touch events only (use-gesture with `pointer.touch`), which Playwright
   * cannot move, so the touches go through the DevTools protocol as a phone's screen sends them.
   */
  async swipe(sn: string): Promise<void> {
    const row = this.row(sn);
    // Until SwipeAction has loaded the row is a still copy, which a finger cannot move and which
    // is drawn again when it loads (a row held across that is no longer in the page).
    await this.page.locator('[data-swipe="live"]', { has: row }).waitFor();
    // The finger must land on the row: one below the fold is scrolled up first.
    await row.scrollIntoViewIfNeeded();
    const box = (await row.boundingBox())!;
    const y = box.y + box.height / 2;
    const from = box.x + box.width - 20;
    const touch = await this.page.context().newCDPSession(this.page);
    try {
      const at = (x: number) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(from) });
      for (let i = 1; i <= 12; i++) {
        await touch.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: at(from - i * 15),
        });
      }
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    } finally {
      await touch.detach();
    }
    await waitUntilSettled(this.action(sn, '编辑'));
  }

  /** The confirmation a cancel asks (its question), once shown and still. */
  async confirmation(): Promise<Locator> {
    const dialog = this.page.locator('.adm-dialog-body');
    await waitUntilSettled(dialog);
    await waitUntilSettled(this.page.locator('.adm-dialog .adm-mask'));
    return dialog;
  }

  /** Answers the confirmation (确定 or 取消) and waits for it to go. */
  async answer(dialog: Locator, button: '确定' | '取消'): Promise<void> {
    await dialog.getByRole('button', { name: button }).tap();
    await dialog.waitFor({ state: 'detached' });
  }

  /** The 已订阅 tag of a row (none when the machine is not followed). */
  subscribedTag(sn: string): Locator {
    return this.row(sn).locator('.adm-tag', { hasText: '已订阅' });
  }

  /** A swipe button of one row (every row has its own, hidden until swiped). */
  action(sn: string, name: '编辑' | '删除'): Locator {
    return (
      this.row(sn)
        // The SwipeAction's root (its track and content have classes that begin the same).
        .locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " adm-swipe-action ")][1]')
        .locator('.adm-swipe-action-actions-right .adm-button', { hasText: name })
    );
  }
}

/** /followSetting: a machine's (or a batch's) subscription settings. */
export class FollowSettingPage {
  readonly machines: Locator;
  readonly alarm: Locator;
  readonly reminder: Locator;
  readonly duration: Locator;
  readonly statistics: Locator;
  readonly daily: Locator;
  readonly week: Locator;
  readonly save: Locator;

  constructor(private readonly page: Page) {
    this.machines = page.getByTestId('follow-machines');
    this.alarm = page.getByTestId('follow-alarm');
    this.reminder = page.getByTestId('follow-reminder');
    this.duration = page.getByTestId('follow-duration');
    this.statistics = page.getByTestId('follow-statistics');
    this.daily = page.getByTestId('follow-daily');
    this.week = page.getByTestId('follow-week');
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

  /** Opens the duration picker, taps the hours and the minutes, and confirms with 确定. */
  async chooseDuration(hours: number, minutes: number): Promise<void> {
    await this.duration.tap();
    const picker = this.picker();
    await waitUntilSettled(picker);
    const columns = picker.locator('.adm-picker-view-column');
    await this.pick(columns.nth(0), `${hours}小时`);
    await this.pick(columns.nth(1), `${minutes}分钟`);
    await picker.locator('.adm-picker-header-button', { hasText: '确定' }).tap();
    await picker.waitFor({ state: 'hidden' });
  }

  /** The duration picker while it is open (antd-mobile keeps a closed one in the page, hidden). */
  picker(): Locator {
    return this.page.locator('.adm-picker').filter({ visible: true });
  }

  /** Taps an item of a picker column and waits until the wheel has turned to it. */
  private async pick(column: Locator, label: string): Promise<void> {
    const text = { has: this.page.getByText(label, { exact: true }) };
    await column.locator('.adm-picker-view-column-item', text).tap();
    const chosen = column.locator('.adm-picker-view-column-item[data-selected="true"]', text);
    await waitUntilSettled(chosen);
  }
}
