import type { Locator, Page } from 'playwright-core';
import { waitUntilDrawn } from '../support/settle.ts';

/**
 * The product-card keys the real-time report shows (spec: PPM, peak, average, yield, counts, DT).
 * Written out here rather than imported from the contracts: the journey checks the screen against
 * the spec, not the code against itself.
 */
export const PRODUCT_KEYS = [
  'ppm',
  'peakPpm',
  'avgPpm',
  'yield',
  'produced',
  'ok',
  'ng',
  'dt',
] as const;
type ProductKey = (typeof PRODUCT_KEYS)[number];

/** /currentDataReport?snCode=… inside the device-detail layout (top bar 设备数据 and three tabs). */
export class RealtimeReportPage {
  readonly navbar: Locator;
  readonly realtimeTab: Locator;
  readonly historyTab: Locator;
  readonly logTab: Locator;
  readonly statusLight: Locator;
  readonly deviceName: Locator;
  readonly productCards: Locator;
  readonly progressItems: Locator;
  readonly chart: Locator;
  readonly connectionError: Locator;
  readonly alarms: Locator;
  readonly lastReading: Locator;
  /** The page without an snCode: 当前无选择设备. */
  readonly noDevice: Locator;

  constructor(private readonly page: Page) {
    this.navbar = page.getByTestId('device-navbar');
    this.realtimeTab = page.getByTestId('device-tab-realtime');
    this.historyTab = page.getByTestId('device-tab-history');
    this.logTab = page.getByTestId('device-tab-log');
    this.statusLight = page.getByTestId('status-light');
    this.deviceName = page.getByTestId('realtime-device-name');
    this.productCards = page.getByTestId('product-card');
    this.progressItems = page.getByTestId('progress-item');
    this.chart = page.getByTestId('realtime-chart');
    this.connectionError = page.getByTestId('connection-error');
    this.alarms = page.getByTestId('realtime-alarm');
    this.lastReading = page.getByTestId('realtime-last-reading');
    this.noDevice = page.getByTestId('no-device');
  }

  /** Each active alarm as shown: code, then its description if it has one. */
  async alarmTexts(): Promise<string[]> {
    return this.alarms.evaluateAll((nodes) =>
      nodes.map((node) => [...node.children].map((child) => child.textContent ?? '').join(' ')),
    );
  }

  async lastReadingText(): Promise<string> {
    return ((await this.lastReading.textContent()) ?? '').trim();
  }

  /** Waits for the first push of the real-time socket and for the chart to be drawn. */
  async waitUntilLive(): Promise<void> {
    await this.statusLight.waitFor();
    await this.productCards.first().waitFor();
    await this.chart.locator('svg').first().waitFor();
  }

  async title(): Promise<string> {
    return ((await this.navbar.locator('.adm-nav-bar-title').textContent()) ?? '').trim();
  }

  async tabTitles(): Promise<string[]> {
    return Promise.all(
      [this.realtimeTab, this.historyTab, this.logTab].map(async (tab) =>
        ((await tab.textContent()) ?? '').trim(),
      ),
    );
  }

  async status(): Promise<{ code: string; label: string }> {
    return {
      code: (await this.statusLight.getAttribute('data-status')) ?? '',
      label: ((await this.statusLight.textContent()) ?? '').trim(),
    };
  }

  async productKeys(): Promise<string[]> {
    return this.productCards.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-key') ?? ''),
    );
  }

  async productValue(key: ProductKey): Promise<string> {
    return ((await this.page.getByTestId(`product-value-${key}`).textContent()) ?? '').trim();
  }

  /** Everything the socket pushes that a person reads: status and every figure. */
  async liveReading(): Promise<string> {
    const { code } = await this.status();
    const values = await Promise.all(PRODUCT_KEYS.map((key) => this.productValue(key)));
    return [code, ...values].join('|');
  }

  async progressPercents(): Promise<string[]> {
    return this.page.getByTestId('progress-percent').allTextContents();
  }

  /** The 24-hour chart sits below the fold on a phone. */
  async scrollToChart(): Promise<void> {
    await this.chart.scrollIntoViewIfNeeded();
    await waitUntilDrawn(this.chart.locator('svg'));
  }

  async backToList(): Promise<void> {
    await this.navbar.getByRole('img', { name: '返回' }).tap();
  }
}
