import type { Locator, Page } from 'playwright-core';
import { links, paths } from '../support/app-paths.ts';
import { waitUntilDrawn } from '../support/settle.ts';

/** /deviceHistory?snCode=… (and /threeParam): day or range, charts or table, three tabs. */
export class DeviceHistoryPage {
  readonly title: Locator;
  readonly dayMode: Locator;
  readonly rangeMode: Locator;
  readonly displayToggle: Locator;
  readonly byDate: Locator;
  readonly byWeek: Locator;
  readonly day: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly previousDay: Locator;
  readonly nextDay: Locator;
  readonly paramTab: Locator;
  readonly dtTab: Locator;
  readonly topTab: Locator;
  readonly paramChart: Locator;
  readonly dtChart: Locator;
  readonly fullscreenButton: Locator;
  readonly rotated: Locator;
  readonly tableRows: Locator;
  readonly rowWarnings: Locator;
  readonly dtRows: Locator;
  readonly topAlarms: Locator;
  readonly noData: Locator;
  /** The row that says the request failed; a tap asks again. */
  readonly retry: Locator;

  constructor(private readonly page: Page) {
    this.title = page.getByTestId('history-title');
    this.dayMode = page.getByTestId('history-mode-day');
    this.rangeMode = page.getByTestId('history-mode-range');
    this.displayToggle = page.getByTestId('history-display');
    this.byDate = page.getByTestId('history-group-date');
    this.byWeek = page.getByTestId('history-group-week');
    this.day = page.getByTestId('history-day');
    this.from = page.getByTestId('history-from');
    this.to = page.getByTestId('history-to');
    this.previousDay = page.getByTestId('history-prev');
    this.nextDay = page.getByTestId('history-next');
    this.paramTab = page.getByTestId('history-tab-param');
    this.dtTab = page.getByTestId('history-tab-dt');
    this.topTab = page.getByTestId('history-tab-top');
    this.paramChart = page.getByTestId('param-chart');
    this.dtChart = page.getByTestId('dt-chart');
    this.fullscreenButton = page.getByTestId('param-chart-fullscreen');
    this.rotated = page.getByTestId('param-chart-rotated');
    this.tableRows = page.getByTestId('history-row');
    this.rowWarnings = page.getByTestId('row-warning');
    this.dtRows = page.getByTestId('dt-row');
    this.topAlarms = page.getByTestId('top-alarm');
    this.noData = page.getByTestId('history-no-data');
    this.retry = page.locator('[data-testid="list-state"][data-state="error"]');
  }

  async open(snCode: string): Promise<void> {
    await this.page.goto(links.machine(paths.deviceHistory, snCode));
    await this.waitUntilShown();
  }

  /**
   * Follows a message's link to the history (/threeParam?snCode=…) with no session: the app
   * sends the phone to sign in first, so there is no title to wait for yet.
   */
  async followMessageLink(snCode: string): Promise<void> {
    await this.page.goto(links.machine(paths.threeParam, snCode));
  }

  async waitUntilShown(): Promise<void> {
    await this.title.waitFor();
  }

  async titleText(): Promise<string> {
    return ((await this.title.textContent()) ?? '').trim();
  }

  async dayShown(): Promise<string> {
    return ((await this.day.textContent()) ?? '').trim();
  }

  async waitForChart(chart: Locator): Promise<void> {
    await waitUntilDrawn(chart.locator('svg'));
  }

  async tap(target: Locator): Promise<void> {
    await target.tap();
  }

  /** The period of each table row as shown (MM-DD, or MM-DD起 for a week). */
  async rowLabels(): Promise<string[]> {
    return this.tableRows.evaluateAll((rows) =>
      rows.map((r) => (r.querySelector('th')?.firstChild?.textContent ?? '').trim()),
    );
  }

  /** Per DT row: 'true' (green, no fault time), 'false' (red), 'none' (no data). */
  async dtStates(): Promise<string[]> {
    return this.dtRows.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-zero') ?? ''));
  }
}
