import { devicesApi } from '@linewatch/contracts/devices-api';
import { PAGE_SIZE } from '@linewatch/contracts/rules/paging';
import { describe, expect, inject, it } from 'vitest';
import { CenterPage } from '../pages/center.page.ts';
import { CARD_METRICS, DeviceListPage, type MetricKey } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { PRODUCT_KEYS, RealtimeReportPage } from '../pages/realtime-report.page.ts';
import { Toast } from '../pages/toast.ts';
import { newPhone } from '../support/browser.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';

/** The device list's pages (contracts' devicesApi.machineList). */
const LIST_PATH = devicesApi.machineList.path;
/** The demo factory: the operator is granted two of its five lines. */
const SMT = 'SMT一线';
const ASSEMBLY = '组装一线';
const OPERATOR_LINES = [SMT, ASSEMBLY];
const SN_OF_LINE: Record<string, RegExp> = { [SMT]: /^LW-S1-\d{3}$/, [ASSEMBLY]: /^LW-A1-\d{3}$/ };
/**
 * LW-S1-005, a reflow oven, waits for maintenance in the demo (apps/server/src/demo/seed.ts): in
 * fault with E518 温度过高 for its first six hours, so throughout a run of the journeys.
 */
const WAITING_FOR_MAINTENANCE = { sn: 'LW-S1-005', alarm: 'E518 温度过高' };
/** Machines of SMT二线, 组装二线 and the fifth line, which the operator must never see. */
const OTHER_LINES_SN = /^LW-(S2|A2|P1)-/;
/** Unplugged from a running gateway in the demo: offline, its gateway online. */
const UNPLUGGED = 'LW-S2-012';

const CARD_STATUS_LABELS: Record<string, string> = {
  running: '运行',
  standBy: '待机',
  error: '故障',
  offLine: '离线',
};
const LIGHT_LABELS: Record<string, string> = { '0': '离线', '1': '待机', '2': '运行', '3': '故障' };
const METRIC_NAMES: Record<MetricKey, string> = {
  produced: '产量',
  ppm: 'PPM',
  superiority: '优率',
  yield: '良率',
  'use-rate': '稼动率',
};

describe('devices: an operator checks on their production lines', () => {
  const journey = useJourney('devices');

  it('signs in as the operator', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.open();
    await login.fill('operator', 'Operator@2026');
    await journey.shot(page, 'login');
    const firstPages: string[] = [];
    const countFirstPages = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === LIST_PATH && url.searchParams.get('pageIndex') === '1')
        firstPages.push(request.url());
    };
    page.on('request', countFirstPages);
    await login.submit();
    await login.toast.waitForText('登录成功');
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    expect(currentPath(page)).toBe(paths.deviceList);
    // Signed in, the unfolded line's first page is asked once (it was asked twice).
    await expect.poll(() => list.groupListState(SMT)).toBe('more');
    page.off('request', countFirstPages);
    expect(firstPages).toHaveLength(1);
    await login.toast.waitUntilGone();
  });

  it('opens the list in a new webview: the page brought its session reply along', async () => {
    // Another webview of the same phone: its own page with the cookie, nothing in its session
    // storage (what a WeChat menu tap may give), and nothing shared with the journey's page.
    const { page } = journey;
    const browser = page.context().browser();
    if (!browser) throw new Error('the journey page has no browser');
    const context = await newPhone(browser, inject('baseUrl'));
    await context.addCookies(await page.context().cookies());
    const webview = await context.newPage();
    try {
      const asked: string[] = [];
      const firstPages: string[] = [];
      webview.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/session') asked.push(request.url());
        if (url.pathname === LIST_PATH && url.searchParams.get('pageIndex') === '1')
          firstPages.push(request.url());
      });
      await webview.goto(paths.deviceList);
      const list = new DeviceListPage(webview);
      await list.waitUntilLoaded();
      expect(currentPath(webview)).toBe(paths.deviceList);
      // The unfolded line's first page, asked once on load (it was asked twice).
      await expect.poll(() => list.groupListState(SMT)).toBe('more');
      expect(firstPages).toHaveLength(1);
      // Asked once, by the page's <link rel="preload">; the app took that reply as it started.
      expect(asked).toHaveLength(1);
      const initiators = await webview.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname === '/api/session')
          .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
      );
      expect(initiators).toEqual(['link']);
    } finally {
      await context.close();
    }
  });

  it('sees exactly their two lines, the first one unfolded with all its machines', async () => {
    const list = new DeviceListPage(journey.page);
    expect(await list.lineNames()).toEqual(OPERATOR_LINES);
    const titles = await list.headerTitles();
    OPERATOR_LINES.forEach((line, i) => expect(titles[i]).toMatch(new RegExp(`^${line}\\d+台$`)));
    expect(await list.isExpanded(SMT)).toBe(true);
    expect(await list.isExpanded(ASSEMBLY)).toBe(false);

    // SMT一线 has more machines than a page (15) holds: the rest come as the operator scrolls.
    const count = await list.groupCount(SMT);
    expect(count).toBeGreaterThan(PAGE_SIZE.deviceList);
    await expect.poll(() => list.groupListState(SMT)).toBe('more');
    expect(await list.groupCards(SMT).count()).toBe(PAGE_SIZE.deviceList);
    await journey.shot(journey.page, 'list');
    // The status tag's text sits in the middle of its box, not at its top.
    const offset = await journey.page
      .getByTestId('card-status')
      .first()
      .evaluate((tag) => {
        const range = document.createRange();
        range.selectNodeContents(tag);
        const text = range.getBoundingClientRect();
        const box = tag.getBoundingClientRect();
        return Math.abs(text.top + text.height / 2 - (box.top + box.height / 2));
      });
    expect(offset).toBeLessThanOrEqual(1);
    await list.scrollToEndOf(SMT);
    expect(await list.groupListState(SMT)).toBe('end');
    expect(await list.groupCards(SMT).count()).toBe(count);
    const sns = await list.visibleSnCodes();
    expect(new Set(sns).size).toBe(count);
    for (const sn of sns) expect(sn).toMatch(SN_OF_LINE[SMT]!);
    await journey.shot(journey.page, 'list-end');
    await list.scrollToTop();
  });

  it('sees the status summary of their machines and the list refresh itself', async () => {
    const list = new DeviceListPage(journey.page);
    const counts = await list.summaryCounts();
    expect(counts.map((c) => c.label)).toEqual(['运行', '待机', '故障', '离线']);
    const total = (await list.groupCount(SMT)) + (await list.groupCount(ASSEMBLY));
    expect(counts.reduce((sum, c) => sum + c.count, 0)).toBe(total);
    const stamp = await list.updatedAtText();
    expect(stamp).toMatch(/^更新于 \d{2}:\d{2}:\d{2}$/);
    // Nobody touches the phone: the list fetches itself again and the stamp moves on.
    await expect.poll(() => list.updatedAtText(), { timeout: 30_000 }).not.toBe(stamp);
    await journey.shot(journey.page, 'live-list');
  });

  it('reads every figure at 320 px wide: at least 14 px and nothing cut off', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await page.setViewportSize({ width: 320, height: 640 });
    try {
      expect(await list.smallestFigureFontPx()).toBeGreaterThanOrEqual(14);
      expect(await list.truncatedFigures()).toEqual([]);
      await journey.shot(page, 'list-320px');
    } finally {
      await page.setViewportSize({ width: 375, height: 667 });
    }
  });

  it('reads each card: name, status, gateway state and the figures against their targets', async () => {
    const list = new DeviceListPage(journey.page);
    const cards = list.groupCards(SMT);
    for (let i = 0; i < (await cards.count()); i++) {
      const card = await list.readCard(cards.nth(i));
      expect(card.name, card.snCode).not.toBe('');
      expect(card.statusLabel, card.snCode).toBe(CARD_STATUS_LABELS[card.status]);
      expect(['网关在线', '网关离线', '未绑定网关'], card.snCode).toContain(card.iot);
      for (const key of CARD_METRICS) {
        const percent = key === 'produced' || key === 'ppm' ? '' : '%';
        // Today's count target is the one due so far ("目标(至当前)"); no data reads "—".
        const note = key === 'produced' ? '(?: 目标\\(至当前\\))?' : '';
        expect(card.metrics[key], `${card.snCode} ${key}`).toMatch(
          new RegExp(`^${METRIC_NAMES[key]}${note}(?:[\\d,.]+${percent}|—)/[\\d,.]+${percent}$`),
        );
      }
    }
  });

  it('folds the first line and unfolds the second', async () => {
    const list = new DeviceListPage(journey.page);
    await list.toggleGroup(SMT);
    await expect.poll(() => list.isExpanded(SMT)).toBe(false);
    expect(await list.groupCards(SMT).count()).toBe(0);

    await list.toggleGroup(ASSEMBLY);
    await expect.poll(() => list.isExpanded(ASSEMBLY)).toBe(true);
    await expect.poll(() => list.groupListState(ASSEMBLY)).toBe('end');
    expect(await list.groupCards(ASSEMBLY).count()).toBe(await list.groupCount(ASSEMBLY));
    const sns = await list.visibleSnCodes();
    expect(sns.length).toBeGreaterThan(0);
    for (const sn of sns) expect(sn).toMatch(SN_OF_LINE[ASSEMBLY]!);
    await journey.shot(journey.page, 'list-group-expanded');
  });

  it('with both lines open, never sees a machine of another line', async () => {
    const list = new DeviceListPage(journey.page);
    await list.toggleGroup(SMT);
    await list.scrollToEndOf(SMT);
    const sns = await list.visibleSnCodes();
    const expected = (await list.groupCount(SMT)) + (await list.groupCount(ASSEMBLY));
    expect(sns).toHaveLength(expected);
    expect(sns.filter((sn) => OTHER_LINES_SN.test(sn))).toEqual([]);
    expect(
      sns.filter((sn) => !SN_OF_LINE[SMT]!.test(sn) && !SN_OF_LINE[ASSEMBLY]!.test(sn)),
    ).toEqual([]);
  });

  it('opens the left menu: 全部 first, then only their lines', async () => {
    const list = new DeviceListPage(journey.page);
    await list.openMenu();
    const entries = await list.menuEntries();
    expect(entries[0]).toEqual({ kind: 'all', text: '全部' });
    expect(entries.filter((entry) => entry.kind === 'line').map((entry) => entry.text)).toEqual(
      OPERATOR_LINES,
    );
    await journey.shot(journey.page, 'menu-drawer');
    await list.chooseAllFromMenu();
  });

  it('taps a running machine and sees its real-time report', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    // Choosing 全部 resets the folds: the first line is open again.
    await expect.poll(() => list.isExpanded(SMT)).toBe(true);
    await list.groupCards(SMT).first().waitFor();
    const card = await list.runningCard(SMT);
    const openedSn = (await card.getAttribute('data-sn')) ?? '';
    expect(openedSn).toMatch(SN_OF_LINE[SMT]!);
    await list.openCard(card);

    const report = new RealtimeReportPage(page);
    await report.waitUntilLive();
    expect(currentPath(page)).toBe(`/currentDataReport?snCode=${encodeURIComponent(openedSn)}`);
    expect(await report.title()).toBe('设备数据');
    expect(await report.tabTitles()).toEqual(['实时数据', '历史数据', '设备日志']);
    expect(await report.deviceName.textContent()).not.toBe('');
    const status = await report.status();
    expect(status.label).toBe(LIGHT_LABELS[status.code]);
    expect(await report.productKeys()).toEqual([...PRODUCT_KEYS]);
    expect(await report.productValue('yield')).toMatch(/^[\d.]+%$/);
    expect(await report.progressItems.count()).toBeGreaterThan(0);
    for (const percent of await report.progressPercents()) expect(percent).toMatch(/^\d+\.\d{2}%$/);
    expect(await report.connectionError.count()).toBe(0);
    await journey.shot(page, 'realtime-report');
  });

  it('watches the figures change as the machine reports', async () => {
    const report = new RealtimeReportPage(journey.page);
    const before = await report.liveReading();
    await expect
      .poll(() => report.liveReading(), { timeout: 30_000, interval: 250 })
      .not.toBe(before);
    await report.scrollToChart();
    await journey.shot(journey.page, 'realtime-updated');
  });

  it('goes back to the list', async () => {
    const { page } = journey;
    await new RealtimeReportPage(page).backToList();
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    expect(currentPath(page)).toBe(paths.deviceList);
    expect(await list.lineNames()).toEqual(OPERATOR_LINES);
  });

  it('taps 故障 in the summary and sees only the machines in fault, first', async () => {
    const list = new DeviceListPage(journey.page);
    // The demo's reflow oven waits for maintenance: in fault from its first reading, for hours.
    // Should its first reading not have reached the list yet, the next refresh (10 s) brings it.
    await expect.poll(() => list.summaryCount('error'), { timeout: 30_000 }).toBeGreaterThan(0);
    await list.tapSummary('error');
    await expect.poll(() => list.isSummaryActive('error')).toBe(true);
    await list.resultCards().first().waitFor();
    const statuses = await list.visibleStatuses();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['error']));
    expect(await list.visibleSnCodes()).toContain(WAITING_FOR_MAINTENANCE.sn);
    await journey.shot(journey.page, 'summary-fault-filter');
  });

  it('opens the machine waiting for maintenance and reads its alarm and when it last reported', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await list.openCard(list.resultCard(WAITING_FOR_MAINTENANCE.sn));
    const report = new RealtimeReportPage(page);
    await report.waitUntilLive();
    expect(currentPath(page)).toBe(`/currentDataReport?snCode=${WAITING_FOR_MAINTENANCE.sn}`);
    expect(await report.status()).toEqual({ code: '3', label: '故障' });
    await expect.poll(() => report.alarmTexts()).toEqual([WAITING_FOR_MAINTENANCE.alarm]);
    expect(await report.lastReadingText()).toMatch(/^最后上报 \d{2}:\d{2}:\d{2}$/);
    await journey.shot(page, 'realtime-alarm');
    await report.backToList();
    await list.waitUntilLoaded();
    if (await list.isSummaryActive('error')) await list.tapSummary('error');
    await expect.poll(() => list.isSummaryActive('error')).toBe(false);
  });

  it('an admin finds a machine silent behind a running gateway: 离线 beside 网关在线, and when it last reported', async () => {
    // LW-S2-012 (SMT二线, which the operator does not see) is unplugged from a gateway that runs:
    // the demo seeded its minutes until it fell silent (apps/server/src/demo/seed.ts).
    const browser = journey.page.context().browser();
    if (!browser) throw new Error('the journey page has no browser');
    const context = await newPhone(browser, inject('baseUrl'));
    const phone = await context.newPage();
    try {
      const login = new LoginPage(phone);
      await login.open();
      await login.fill('admin', 'Admin@2026');
      await login.submit();
      const list = new DeviceListPage(phone);
      await list.waitUntilLoaded();
      await login.toast.waitUntilGone();
      await list.searchFor(UNPLUGGED);
      const card = list.resultCard(UNPLUGGED);
      await card.waitFor();
      const view = await list.readCard(card);
      expect([view.status, view.statusLabel, view.iot]).toEqual(['offLine', '离线', '网关在线']);
      await journey.shot(phone, 'offline-card');
      await list.openCard(card);
      const report = new RealtimeReportPage(phone);
      await report.waitUntilLive();
      expect(await report.status()).toEqual({ code: '0', label: '离线' });
      expect(await report.productValue('produced')).toMatch(/^[1-9][\d,]*$/);
      expect(await report.lastReadingText()).toMatch(
        /^最后上报 (?:\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2} \d{2}:\d{2})$/,
      );
      await journey.shot(phone, 'realtime-offline');
    } finally {
      await context.close();
    }
  });

  it('searches an SN of another line: told 无权查看 once, the list stays as it was', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await list.groupCards(SMT).first().waitFor();
    // The same machines: their order may move meanwhile (a machine going into fault comes
    // first, live), which is not the refused search replacing the list.
    const sorted = async () => (await list.visibleSnCodes()).sort();
    const before = await sorted();
    await list.searchFor('LW-S2-001');
    const toast = new Toast(page);
    await toast.waitForText('无权查看，请联系管理员');
    expect(await sorted()).toEqual(before);
    expect(await list.retryStates()).toEqual([]);
    await journey.shot(page, 'search-forbidden');
    await toast.waitUntilGone();
    await list.searchFor('NO-SUCH-SN');
    await expect.poll(() => list.listStates()).toEqual(['noResult']);
    await journey.shot(page, 'search-no-result');
    await list.clearSearch();
    await list.groupCards(SMT).first().waitFor();
  });

  it('reloads the list in the same tab and is still signed in', async () => {
    const { page } = journey;
    // The tab keeps its token, so this load does not ask who the cookie is, and the reply its
    // HTML preloaded goes unused; signing out next must still end on the login page.
    await page.reload();
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    expect(await list.lineNames()).toEqual(OPERATOR_LINES);
  });

  it('goes to 个人中心 and signs out after confirming', async () => {
    const { page } = journey;
    await new DeviceListPage(page).goToCenter();
    const center = new CenterPage(page);
    await center.waitUntilShown();
    expect(currentPath(page)).toBe(paths.center);
    await expect.poll(() => center.nicknameText()).toBe('李班长');
    await journey.shot(page, 'center');

    await center.askToLogOut();
    // A password session unbinds nothing, so it is asked plainly (WeChat and DingTalk sessions are
    // told they unbind: signin.journey.ts).
    expect(await center.dialogText()).toBe('确定退出登录吗？');
    await journey.shot(page, 'logout-dialog');
    await center.confirmLogOut();

    const login = new LoginPage(page);
    await login.waitUntilShown();
    expect(currentPath(page)).toBe(paths.login);
    await journey.shot(page, 'signed-out');
  });

  it('reloading the device list afterwards asks to sign in again', async () => {
    const { page } = journey;
    await page.goto(paths.deviceList);
    await new LoginPage(page).waitUntilShown();
    expect(currentPath(page)).toBe(links.login(paths.deviceList));
    await journey.shot(page, 'login-again');
  });
});
