import type { Locator, Page } from 'playwright-core';

/**
 * What the app shows of the network, over any screen: the offline banner (离线 · 数据更新于 …),
 * and the phone's network itself (Playwright's offline emulation, as airplane mode).
 */
export class OfflinePhone {
  readonly banner: Locator;
  /**
   * A screen opened for the first time offline: the map's own failure (地图加载失败) when its
   * code was precached, the app's offline notice (网络异常，请检查网络连接 · 重试) when not.
   */
  readonly neverOpenedScreen: Locator;

  constructor(private readonly page: Page) {
    this.banner = page.getByTestId('offline-banner');
    this.neverOpenedScreen = page.getByTestId('map-retry').or(page.getByTestId('route-offline'));
  }

  /**
   * The app's service worker has installed (every page's code precached) and controls the page:
   * from now on a screen opens without the network.
   */
  async waitUntilInstalled(): Promise<void> {
    // Not an async predicate: its promise would be truthy at once, and the journey went offline
    // while the worker was still installing (then a reload offline got chromium's error page).
    await this.page.waitForFunction(
      () => navigator.serviceWorker.controller?.state === 'activated',
      undefined,
      { timeout: 60_000 },
    );
  }

  async goOffline(): Promise<void> {
    await this.page.context().setOffline(true);
  }

  async goOnline(): Promise<void> {
    await this.page.context().setOffline(false);
  }

  async bannerText(): Promise<string> {
    return ((await this.banner.textContent()) ?? '').trim();
  }

  /**
   * Chromium's own error page (ERR_INTERNET_DISCONNECTED, the dinosaur) instead of the app: it
   * has no #root, and its body names the error.
   */
  async showsBrowserErrorPage(): Promise<boolean> {
    return this.page.evaluate(
      () =>
        document.getElementById('root') === null ||
        /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED/.test(document.body.innerText),
    );
  }
}
