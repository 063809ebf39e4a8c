import type { Locator, Page } from 'playwright-core';
import { links, paths } from '../support/app-paths.ts';

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

  async texts(items: Locator): Promise<string[]> {
    return items.allTextContents();
  }

  async position(): Promise<string> {
    return ((await this.operationPosition.textContent()) ?? '').replace(/\s+/g, '');
  }
}
