import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { describe, expect, it } from 'vitest';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { MapPage } from '../pages/map.page.ts';
import { RealtimeReportPage } from '../pages/realtime-report.page.ts';
import { StatisticsPage } from '../pages/statistics.page.ts';
import { Toast } from '../pages/toast.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';

/*
 * The demo factory (apps/server/src/demo/seed.ts): the operator is granted SMT一线 (Shenzhen) and
 * 组装一线 (Suzhou); SMT二线 (Dongguan), 组装二线 (Hangzhou) and 包装线 (Chengdu) are not theirs,
 * so Dongguan, Zhejiang and Sichuan must never appear on their map.
 */
const OPERATOR_LINES = ['SMT一线', '组装一线'];
const HIDDEN_PLACES = ['东莞市', '浙江省', '四川省', '杭州市', '成都市'];

/** The phone (and the factory) keep Shanghai time; the pickers speak its wall clock. */
const wallClock = (offsetMs = 0): string => {
  const p: Record<string, string> = {};
  for (const part of new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(Date.now() + offsetMs))
    p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
};
const DAY_MS = 86_400_000;

// The spec's colours of a met and a missed target (antd-mobile's success and danger).
const GREEN = 'rgb(0, 181, 120)';
const RED = 'rgb(255, 49, 65)';

describe('monitoring: the operator looks at the map and the statistics', () => {
  const journey = useJourney('monitoring-map');
  let machines = 0;

  it('signs in and opens the map tab', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.open();
    await login.signIn('operator', 'Operator@2026');
    await new DeviceListPage(page).waitUntilLoaded();
    await page.getByTestId('tab-map').tap();
    const map = new MapPage(page);
    await map.waitUntilDrawn();
    expect(currentPath(page)).toBe(paths.map);
    expect(await map.level()).toBe('world');
  });

  it('sees the world: every machine of their lines, all in China, by status', async () => {
    const map = new MapPage(journey.page);
    await expect.poll(() => map.regionCounts()).toHaveLength(1);
    const [[country, count]] = (await map.regionCounts()) as [[string, number]];
    expect(country).toBe('中国');
    const summary = await map.summaryCounts();
    machines = summary.totalNum!;
    expect(count).toBe(machines);
    expect(machines).toBeGreaterThan(0);
    expect(
      summary.offLineNum! + summary.runningNum! + summary.standbyNum! + summary.errorNum!,
    ).toBe(machines);
    expect((await map.pointLabels()).join(' ')).toContain(`中国 ${machines}`);
    expect(await map.upButton.isDisabled()).toBe(true);
    await journey.shot(journey.page, 'map-world');
  });

  it('folds and unfolds the summary', async () => {
    const map = new MapPage(journey.page);
    await map.summaryToggle.tap();
    expect(await map.summaryOpen()).toBe(false);
    expect(await map.summaryToggle.textContent()).toContain(`共 ${machines} 台`);
    await journey.shot(journey.page, 'map-summary-folded');
    await map.summaryToggle.tap();
    expect(await map.summaryOpen()).toBe(true);
  });

  it('drills into China: Guangdong and Jiangsu only, on a map with the South China Sea islands', async () => {
    const map = new MapPage(journey.page);
    await map.drillInto('中国');
    await expect.poll(() => map.level()).toBe('country');
    await map.waitUntilDrawn();
    await expect
      .poll(async () => (await map.regionCounts()).map(([name]) => name).sort())
      .toEqual(['广东省', '江苏省']);
    const total = (await map.regionCounts()).reduce((sum, [, n]) => sum + n, 0);
    expect(total).toBe(machines);
    expect((await map.summaryCounts()).totalNum).toBe(machines);
    expect(await map.crumbTexts()).toEqual(['世界', '中国']);
    // The complete territory, as maps published in China must show it: the 34 provincial
    // regions, Taiwan among them, and the South China Sea islands with their line.
    const shape = await map.chinaShape();
    expect(Object.keys(shape)).toHaveLength(35);
    expect(shape['台湾省']).toBeGreaterThan(0);
    expect(shape['南海诸岛']).toBeGreaterThanOrEqual(10);
    await journey.shot(journey.page, 'map-china');
  });

  it('drills into Guangdong, then Shenzhen; never a place of another line', async () => {
    const map = new MapPage(journey.page);
    await map.drillInto('广东省');
    await expect.poll(() => map.level()).toBe('province');
    await map.waitUntilDrawn();
    await expect.poll(async () => (await map.regionCounts()).map(([n]) => n)).toEqual(['深圳市']);
    for (const place of HIDDEN_PLACES)
      expect((await map.pointLabels()).join(' ')).not.toContain(place);
    await journey.shot(journey.page, 'map-guangdong');

    const shenzhen = (await map.regionCounts())[0]![1];
    await map.drillInto('深圳市');
    await expect.poll(() => map.level()).toBe('city');
    await map.waitUntilDrawn();
    await expect.poll(async () => (await map.summaryCounts()).totalNum).toBe(shenzhen);
    expect(await map.crumbTexts()).toEqual(['世界', '中国', '广东省', '深圳市']);
    await journey.shot(journey.page, 'map-shenzhen');
  });

  it('goes up a level with a right click and 上一级, and back to the world with its button', async () => {
    const map = new MapPage(journey.page);
    await map.rightClickMap();
    await expect.poll(() => map.level()).toBe('province');
    await map.up();
    await expect.poll(() => map.level()).toBe('country');
    await map.waitUntilDrawn();
    await journey.shot(journey.page, 'map-up-to-china');
    await map.backToWorld();
    await expect.poll(() => map.level()).toBe('world');
    await expect.poll(async () => (await map.summaryCounts()).totalNum).toBe(machines);
  });

  it('a map file that fails to load offers 地图加载失败; tapping it draws the map', async () => {
    const { page } = journey;
    const map = new MapPage(page);
    // A fresh load of China: its file is not in the app's cache yet.
    const china = '**/map/100000.json';
    await page.route(china, (route) => route.abort());
    await page.goto(links.map(['中国']));
    await map.retry.waitFor();
    expect(await map.retry.textContent()).toBe('地图加载失败，点击重新加载');
    // The counts do not wait for the shape.
    await expect.poll(async () => (await map.summaryCounts()).totalNum).toBe(machines);
    await journey.shot(page, 'map-file-retry');
    await page.unroute(china);
    await map.retry.tap();
    await map.waitUntilDrawn();
    expect(await map.level()).toBe('country');
    await expect.poll(() => map.regions.count()).toBe(2);
  });

  it('failed map data show the retry row; tapping it brings the counts back', async () => {
    const { page } = journey;
    const map = new MapPage(page);
    const data = [statisticsApi.mapData.path, statisticsApi.mapAllData.path].map(
      (path) => `**${path}?**`,
    );
    for (const url of data) await page.route(url, (route) => route.abort());
    await page.goto(paths.map);
    await map.dataRetry.waitFor();
    expect(await map.dataRetry.textContent()).toBe('请求失败，点击重新加载');
    expect(await map.regions.count()).toBe(0);
    // The failure's toast (网络异常) goes; the retry row stays.
    await new Toast(page).waitUntilGone();
    await map.waitUntilDrawn();
    await journey.shot(page, 'map-data-retry');
    for (const url of data) await page.unroute(url);
    await map.dataRetry.tap();
    await expect.poll(async () => (await map.summaryCounts()).totalNum).toBe(machines);
    await expect.poll(() => map.regionCounts()).toEqual([['中国', machines]]);
    await map.dataRetry.waitFor({ state: 'detached' });
  });

  it('selects nine machines in selection mode: a count, eight names, then an ellipsis', async () => {
    const { page } = journey;
    await page.getByTestId('tab-device-list').tap();
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    await list.subscribeToggle.tap();
    await list.checkboxes.first().waitFor();
    // Both lines open, so at least nine cards are on the page.
    for (const line of OPERATOR_LINES)
      if (!(await list.isExpanded(line))) await list.toggleGroup(line);
    await expect.poll(() => list.checkboxes.count()).toBeGreaterThanOrEqual(9);
    for (let i = 0; i < 9; i++) await list.checkboxes.nth(i).tap();
    await expect.poll(() => list.selectionCount.textContent()).toBe('9');
    const names = (await list.selectionList.textContent()) ?? '';
    expect(names.endsWith('…')).toBe(true);
    expect(names.slice(0, -1).split('、')).toHaveLength(8);
    await journey.shot(page, 'list-selection');
    await list.selectionCancel.tap();
    await list.checkboxes.first().waitFor({ state: 'detached' });
  });

  it('opens the statistics from the device list, searching from 08:00 to now', async () => {
    const { page } = journey;
    const list = new DeviceListPage(page);
    await list.waitUntilLoaded();
    await page.getByTestId('statistics-button').tap();
    const statistics = new StatisticsPage(page);
    await statistics.waitUntilShown();
    expect(currentPath(page)).toBe(paths.deviceStatistics);
    const [start, end] = await statistics.range();
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2} 08:00:00$/);
    expect(Math.abs(Date.parse(`${end.replace(' ', 'T')}+08:00`) - Date.now())).toBeLessThan(
      120_000,
    );
    await expect.poll(() => statistics.lineOptions()).toEqual(['全部产品线', ...OPERATOR_LINES]);
    await journey.shot(page, 'statistics-search');
  });

  it('is told each rule of the search (docs/product.md section 5)', async () => {
    const statistics = new StatisticsPage(journey.page);
    await statistics.tapGroup();
    expect(await statistics.problemText()).toBe('请先选择产品线');
    await journey.shot(journey.page, 'statistics-line-first');

    const cases: [string, string, string][] = [
      ['', wallClock(), '请选择时间'],
      [wallClock(-DAY_MS), wallClock(-2 * DAY_MS), '开始时间不能大于结束时间'],
      [wallClock(-DAY_MS), wallClock(DAY_MS), '最大时间不能超过当前时间'],
      [wallClock(-40 * DAY_MS), wallClock(), '日期不可超过31天'],
    ];
    for (const [i, [start, end, message]] of cases.entries()) {
      await statistics.setRange(start, end);
      await statistics.search();
      await expect.poll(() => statistics.problemText()).toBe(message);
      await journey.shot(journey.page, `statistics-rule-${i + 1}`);
    }
    expect(await statistics.cards.count()).toBe(0);
  });

  it('gets five cards a page for SMT一线 over the last seven days, coloured by target', async () => {
    const statistics = new StatisticsPage(journey.page);
    await statistics.setRange(`${wallClock(-7 * DAY_MS).slice(0, 10)} 00:00:00`, wallClock());
    await statistics.chooseLine('SMT一线');
    await statistics.search();
    await expect.poll(() => statistics.cards.count()).toBe(5);
    const total = await statistics.totalCount();
    expect(total).toBeGreaterThan(5);
    const first = statistics.cards.first();
    expect(await first.textContent()).toContain('SMT一线');
    for (const name of ['produced', 'ng', 'yield', 'use-rate', 'avg-ppm', 'max-ppm']) {
      const { text, ok } = await statistics.metric(first, name);
      expect(text).toMatch(/\/|—/);
      if (ok !== 'none')
        expect(await statistics.metricColour(first, name)).toBe(ok === 'true' ? GREEN : RED);
    }
    // Seven days of a demo line: it made parts.
    expect((await statistics.metric(first, 'produced')).text).not.toMatch(/^产量0\//);
    await journey.shot(journey.page, 'statistics-results');

    await statistics.scrollToEnd();
    expect(await statistics.cards.count()).toBe(total);
    expect(await statistics.listState.textContent()).toBe('没有更多了');
    await journey.shot(journey.page, 'statistics-end');
  });

  it('a failed search shows the retry row; tapping it loads the cards', async () => {
    const { page } = journey;
    const statistics = new StatisticsPage(page);
    const search = `**${statisticsApi.statistics.path}?**`;
    await page.route(search, (route) => route.abort());
    // Another line: a new search, not the one the app already holds.
    await statistics.chooseLine('组装一线');
    await statistics.search();
    await statistics.retry.waitFor();
    expect(await statistics.retry.textContent()).toBe('请求失败，点击重新加载');
    expect(await statistics.cards.count()).toBe(0);
    await new Toast(page).waitUntilGone();
    await statistics.retry.scrollIntoViewIfNeeded();
    await journey.shot(page, 'statistics-retry');
    await page.unroute(search);
    await statistics.retry.tap();
    await expect.poll(() => statistics.cards.count()).toBeGreaterThan(0);
    expect(await statistics.cards.first().textContent()).toContain('组装一线');
    await journey.shot(page, 'statistics-after-retry');
  });

  it('sees 当前无选择设备 on the real-time report without a machine', async () => {
    const { page } = journey;
    await page.goto(paths.currentDataReport);
    const report = new RealtimeReportPage(page);
    await report.noDevice.waitFor();
    expect(await report.noDevice.textContent()).toContain('当前无选择设备');
    await journey.shot(page, 'realtime-no-device');
  });
});
