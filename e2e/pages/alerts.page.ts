import type { Locator, Page } from 'playwright-core';

/** /messages: the in-app inbox. */
export class MessagesPage {
  readonly items: Locator;
  readonly unread: Locator;
  readonly readAll: Locator;

  constructor(page: Page) {
    this.items = page.getByTestId('message-item');
    this.unread = page.getByTestId('messages-unread');
    this.readAll = page.getByTestId('messages-read-all');
  }

  async titles(): Promise<string[]> {
    return (await this.items.locator('.adm-list-item-content-main').allTextContents()).map((t) =>
      t.trim(),
    );
  }
}

/** /report: the daily/weekly report's tabs. */
export class ReportPage {
  readonly title: Locator;
  readonly chart: Locator;
  readonly download: Locator;

  constructor(private readonly page: Page) {
    this.title = page.getByTestId('report-title');
    this.chart = page.getByTestId('report-chart');
    this.download = page.getByTestId('report-download');
  }

  async openTab(name: '三参数' | 'DT' | '报警记录'): Promise<void> {
    await this.page.locator('.adm-tabs-tab', { hasText: name }).tap();
    await this.chart.locator('svg').first().waitFor();
  }
}

/** /set: channels and account. */
export class SetPage {
  readonly save: Locator;
  readonly wechat: Locator;

  constructor(page: Page) {
    this.save = page.getByTestId('set-save');
    this.wechat = page.getByTestId('set-wechat');
  }
}

/** /faultAlarm: a public troubleshooting case. */
export class FaultAlarmPage {
  readonly content: Locator;
  readonly sn: Locator;
  readonly carousels: Locator;
  readonly items: Locator;

  constructor(page: Page) {
    this.content = page.getByTestId('fault-content');
    this.sn = page.getByTestId('fault-sn');
    this.carousels = page.getByTestId('fault-carousel');
    this.items = page.getByTestId('fault-item');
  }
}
