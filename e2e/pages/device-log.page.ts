import type { Locator, Page } from 'playwright-core';
import { links, paths } from '../support/app-paths.ts';
import { waitUntilSettled } from '../support/settle.ts';

/** /deviceLog?snCode=…: stop alarms and operation log of one day, previous / next paging. */
export class DeviceLogPage {
  readonly alarmsTab: Locator;
  readonly operationsTab: Locator;
  readonly date: Locator;
  /** Stop alarms still active, flagged as errors (in the day's list or above it). */
  readonly currentWarnings: Locator;
  readonly stopAlarms: Locator;
  readonly operations: Locator;
  readonly alarmPager: Locator;
  readonly operationNext: Locator;
  readonly operationPosition: Locator;
  readonly listState: Locator;

  constructor(private readonly page: Page) {
    this.alarmsTab = page.getByTestId('log-tab-alarms');
    this.operationsTab = page.getByTestId('log-tab-operations');
    this.date = page.getByTestId('log-date');
    this.currentWarnings = page.locator(
      '[data-testid="current-warning"], [data-testid="stop-alarm"][data-state="1"]',
    );
    this.stopAlarms = page.getByTestId('stop-alarm');
    this.operations = page.getByTestId('operation-log');
    this.alarmPager = page.getByTestId('alarm-pager');
    this.operationNext = page.getByTestId('operation-pager-next');
    this.operationPosition = page.getByTestId('operation-pager-position');
    this.listState = page.getByTestId('list-state');
  }

  async open(snCode: string): Promise<void> {
    await this.page.goto(links.machine(paths.deviceLog, snCode));
    await this.alarmsTab.waitFor();
  }

  /**
   * Opens the calendar, turns its year, month and day wheels to a day (YYYY-MM-DD) and confirms.
   * A wheel is tapped on an item in view: the day must be near the one shown (a year back is).
   */
  async chooseDay(day: string): Promise<void> {
    await this.date.tap();
    const picker = this.page.locator('.adm-picker').filter({ visible: true });
    await waitUntilSettled(picker);
    const columns = picker.locator('.adm-picker-view-column');
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    for (const [i, label] of [year, month, date].entries()) {
      const text = { has: this.page.getByText(String(label), { exact: true }) };
      await columns.nth(i).locator('.adm-picker-view-column-item', text).tap();
      await waitUntilSettled(
        columns.nth(i).locator('.adm-picker-view-column-item[data-selected="true"]', text),
      );
    }
    await picker.locator('.adm-picker-header-button', { hasText: '确定' }).tap();
    await picker.waitFor({ state: 'hidden' });
  }

  async dayShown(): Promise<string> {
    return ((await this.date.textContent()) ?? '').trim();
  }

  async texts(items: Locator): Promise<string[]> {
    return items.allTextContents();
  }

  async position(): Promise<string> {
    return ((await this.operationPosition.textContent()) ?? '').replace(/\s+/g, '');
  }
}
