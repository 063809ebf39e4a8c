import { identityApi } from '@linewatch/contracts/identity-api';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { describe, expect, inject, it } from 'vitest';
import { DeviceHistoryPage } from '../pages/device-history.page.ts';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { OfflinePhone } from '../pages/offline.page.ts';
import { RealtimeReportPage } from '../pages/realtime-report.page.ts';
import { Toast } from '../pages/toast.ts';
import { daysAgo } from '../support/factory-day.ts';
import { paths } from '../support/app-paths.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';

/** 离线 · 数据更新于 刚刚 / 3分钟前: the banner with the age of the data on the screen. */
const WITH_AGE = /^离线 · 数据更新于 (刚刚|\d+分钟前)$/;
const NETWORK_ERROR = '网络异常，请检查网络连接';
const SMT = 'SMT一线';

/**
 * Issue 25, item 2: a phone that goes offline inside WeChat on a factory floor. The screens a
 * worker opened keep their last-known data with its age under an offline banner, a screen never
 * opened says it is offline inside the app (never chromium's error page), a history day never
 * loaded shows the network error with a retry (never the previous day's chart), and back online
 * the banner goes, the data refresh and the real-time page goes live again.
 */
describe('offline: a phone that loses the network on the factory floor', () => {
  const journey = useJourney('offline');
  let openedSn = '';

  it('signs in and opens the device list; the app installs for offline use', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.open();
    await login.signIn('operator', 'Operator@2026');
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    await new OfflinePhone(page).waitUntilInstalled();
    expect(await new OfflinePhone(page).banner.count()).toBe(0);
    await journey.shot(page, 'list-online');
  });

  it('opens a running machine’s real-time page, then its history', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await list.groupCards(SMT).first().waitFor();
    const card = await list.runningCard(SMT);
    openedSn = (await card.getAttribute('data-sn')) ?? '';
    await list.openCard(card);
    const report = new RealtimeReportPage(page);
    await report.waitUntilLive();
    await journey.shot(page, 'realtime-online');

    await report.historyTab.tap();
    const history = new DeviceHistoryPage(page);
    await history.waitUntilShown();
    expect(await history.dayShown()).toBe(daysAgo(1));
    await history.waitForChart(history.paramChart);
    await journey.shot(page, 'history-online');
  });

  it('goes offline: the history keeps its day, under the banner with the data’s age', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    await phone.goOffline();
    await expect.poll(() => phone.bannerText()).toMatch(WITH_AGE);
    const history = new DeviceHistoryPage(page);
    expect(await history.paramChart.count()).toBe(1);
    await journey.shot(page, 'history-offline');
  });

  it('steps back to a day never loaded: the network error and a retry, not the previous chart', async () => {
    const { page } = journey;
    const history = new DeviceHistoryPage(page);
    await history.tap(history.previousDay);
    await expect.poll(() => history.dayShown()).toBe(daysAgo(2));
    await new Toast(page).waitForText(NETWORK_ERROR);
    await history.retry.waitFor();
    expect(await history.paramChart.count()).toBe(0);
    // A retry still offline fails again at once, with no chart of another day.
    await history.retry.tap();
    await history.retry.waitFor();
    expect(await history.paramChart.count()).toBe(0);
    // Still named as the machine, not by its SN alone.
    expect(await page.getByTestId('history-title').textContent()).toMatch(
      new RegExp(`^.+（${openedSn}）$`),
    );
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'history-day-offline');
  });

  it('the real-time page shows the machine’s last reading, with its age', async () => {
    const { page } = journey;
    const report = new RealtimeReportPage(page);
    await report.realtimeTab.tap();
    await report.deviceName.waitFor();
    expect(await report.deviceName.textContent()).not.toBe('');
    expect(await report.productCards.count()).toBeGreaterThan(0);
    await report.connectionError.waitFor();
    await expect.poll(() => new OfflinePhone(page).bannerText()).toMatch(WITH_AGE);
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'realtime-offline');
  });

  it('the device list shows its last-known machines, with their age', async () => {
    const { page } = journey;
    await new RealtimeReportPage(page).backToList();
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    expect(currentPath(page)).toBe(paths.deviceList);
    expect(await list.cards.count()).toBeGreaterThan(0);
    await expect.poll(() => new OfflinePhone(page).bannerText()).toMatch(WITH_AGE);
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'list-offline');
  });

  it('reloaded offline: the same machines with their age, not the sign-in page', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    const list = new DeviceListPage(page);
    const names = await list.cards.getByTestId('card-name').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    await page.reload();
    expect(await phone.showsBrowserErrorPage()).toBe(false);
    await list.waitUntilLoaded();
    expect(currentPath(page)).toBe(paths.deviceList);
    expect(await list.cards.getByTestId('card-name').allTextContents()).toEqual(names);
    await expect.poll(() => phone.bannerText()).toMatch(WITH_AGE);
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'list-reloaded-offline');
  });

  it('a cold start offline (WeChat killed the webview): the last-known list, not the sign-in page', async () => {
    const { page } = journey;
    // A new tab: no sessionStorage, so no session the app knows of, and no server to ask.
    const cold = await page.context().newPage();
    try {
      await cold.goto(paths.deviceList);
      const phone = new OfflinePhone(cold);
      expect(await phone.showsBrowserErrorPage()).toBe(false);
      const list = new DeviceListPage(cold);
      await list.waitUntilLoaded();
      expect(currentPath(cold)).toBe(paths.deviceList);
      expect(await list.cards.count()).toBeGreaterThan(0);
      await expect.poll(() => phone.bannerText()).toMatch(WITH_AGE);
      await new Toast(cold).waitUntilGone();
      await journey.shot(cold, 'list-cold-start-offline');
    } finally {
      await cold.close();
    }
  });

  it('a screen never opened says it is offline inside the app, not the browser’s error page', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    await page.getByTestId('tab-map').tap();
    // Its code precached, the map page opens and says its map could not load; its code not
    // fetched yet (the worker still installing), the app's own offline notice.
    await phone.neverOpenedScreen.waitFor();
    expect(await phone.showsBrowserErrorPage()).toBe(false);
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'map-never-opened-offline');
  });

  it('back online: the banner goes and the list’s data refresh', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    await phone.goOnline();
    await page.goBack();
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    const before = await list.updatedAtText();
    await expect.poll(() => list.updatedAtText(), { timeout: 30_000 }).not.toBe(before);
    expect(await phone.banner.count()).toBe(0);
    await journey.shot(page, 'list-back-online');
  });

  it('the real-time page, opened offline, goes live again when the network is back', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    const list = new DeviceListPage(page);
    await phone.goOffline();
    await list.openCard(list.cards.and(page.locator(`[data-sn="${openedSn}"]`)).first());
    const report = new RealtimeReportPage(page);
    await report.connectionError.waitFor();
    const before = await report.liveReading();
    await journey.shot(page, 'realtime-reopened-offline');
    await phone.goOnline();
    await phone.banner.waitFor({ state: 'detached' });
    // Resumed at once on `online`, with a fresh snapshot: no 5 s retry wait, no stale reading.
    await report.connectionError.waitFor({ state: 'detached' });
    await expect.poll(() => report.liveReading(), { timeout: 30_000 }).not.toBe(before);
    await journey.shot(page, 'realtime-back-online');
  });

  it('online, the server decides: a session ended elsewhere reloads into 请重新登录', async () => {
    const { page } = journey;
    const phone = new OfflinePhone(page);
    await phone.goOnline();
    await page.goto(paths.deviceList);
    await new DeviceListPage(page).waitUntilLoaded();
    // Signed out by another client holding the same session.
    const keyId =
      (await page.context().cookies()).find((c) => c.name === KEY_ID_COOKIE)?.value ?? '';
    const out = await fetch(inject('baseUrl') + identityApi.signOut.path, {
      method: 'POST',
      headers: { [KEY_ID_HEADER]: keyId },
    });
    expect(out.status).toBe(200);
    await page.reload();
    await page.getByTestId('login-reason').waitFor();
    expect(currentPath(page)).toMatch(/^\/login\?/);
    expect(await page.getByTestId('login-reason').textContent()).toBe('请重新登录');
    // Nothing of that session is kept for offline any more.
    expect(await page.evaluate(() => localStorage.getItem('lw-last-known'))).toBeNull();
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'expired-online');
  });

  it('and a cold start offline after it is the sign-in page, with no one’s data', async () => {
    const { page } = journey;
    await new OfflinePhone(page).goOffline();
    const cold = await page.context().newPage();
    try {
      await cold.goto(paths.deviceList);
      await new LoginPage(cold).username.waitFor();
      expect(currentPath(cold)).toMatch(/^\/login/);
      expect(await cold.getByTestId('device-card').count()).toBe(0);
      await journey.shot(cold, 'cold-start-offline-signed-out');
    } finally {
      await cold.close();
      await new OfflinePhone(page).goOnline();
    }
  });
});
