import type { HistoryReply } from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { describe, expect, it } from 'vitest';
import { DeviceHistoryPage } from '../pages/device-history.page.ts';
import { DeviceLogPage } from '../pages/device-log.page.ts';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { Toast } from '../pages/toast.ts';
import { daysAgo } from '../support/factory-day.ts';
import { useJourney } from '../support/journey.ts';

/**
 * Demo machines (apps/server/src/demo/seed.ts): LW-S1-002 faults often (alarms every day, so an
 * alarm TOP5); LW-S1-005 waits for maintenance, in fault with E518 温度过高 (a current warning).
 * The demo back-fills 90 days of hours and day totals but minutes only for yesterday and today, as
 * a site keeps them past the minutes' retention: a day view of any of them draws its hours.
 */
const FAULTY = 'LW-S1-002';
const WAITING = 'LW-S1-005';
/** The Monday (YYYY-MM-DD) of a day's week. */
const mondayOf = (day: string) => {
  const t = Date.parse(`${day}T00:00:00Z`);
  return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
};

describe('monitoring history: an engineer looks back at a machine', () => {
  const journey = useJourney('monitoring-history');

  it('signs in and opens a machine’s history: yesterday by hour', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.open();
    await login.signIn('operator', 'Operator@2026');
    await new DeviceListPage(page).waitUntilLoaded();
    const history = new DeviceHistoryPage(page);
    await history.open(FAULTY);
    await expect.poll(() => history.titleText()).toMatch(new RegExp(`（${FAULTY}）$`));
    expect(await history.dayShown()).toBe(daysAgo(1));
    await history.waitForChart(history.paramChart);
    await journey.shot(page, 'day-parameters');
  });

  it('looks at the DT of that day and its alarm TOP5', async () => {
    const history = new DeviceHistoryPage(journey.page);
    await history.tap(history.dtTab);
    await history.waitForChart(history.dtChart);
    await journey.shot(journey.page, 'day-dt');
    await history.tap(history.topTab);
    await history.topAlarms.first().waitFor();
    const top = await history.topAlarms.allTextContents();
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThanOrEqual(5);
    for (const item of top)
      expect(item).toMatch(/^1?\dE\d{3}.*次数 \d+时长 [\d.]+ 分钟.*处理说明：/);
    await journey.shot(journey.page, 'day-top5');
  });

  it('switches to the range: the last 7 days as a table with targets', async () => {
    const history = new DeviceHistoryPage(journey.page);
    await history.tap(history.paramTab);
    await history.tap(history.rangeMode);
    await history.tableRows.first().waitFor();
    expect(await history.tableRows.count()).toBe(7);
    expect(await history.from.textContent()).toBe(daysAgo(7));
    expect(await history.to.textContent()).toBe(daysAgo(1));
    await journey.shot(journey.page, 'range-table');
    await history.tap(history.dtTab);
    await history.dtRows.first().waitFor();
    expect(await history.dtRows.count()).toBe(7);
    await journey.shot(journey.page, 'range-dt-list');
  });

  it('groups the range by week (pageType week): a row per week, by its first day in the range', async () => {
    const history = new DeviceHistoryPage(journey.page);
    await history.tap(history.paramTab);
    await history.tap(history.byWeek);
    // A week begun before the range is labelled by the range's first day, not its Monday
    // (issue 25: a range from 11-20 opened with 11-16起).
    const first = daysAgo(7);
    const mondays = [...new Set([7, 6, 5, 4, 3, 2, 1].map((n) => mondayOf(daysAgo(n))))].map(
      (monday) => (monday < first ? first : monday),
    );
    await expect.poll(() => history.rowLabels()).toEqual(mondays.map((m) => `${m.slice(5)}起`));
    await journey.shot(journey.page, 'range-by-week');
    await history.tap(history.dtTab);
    await expect.poll(() => history.dtRows.count()).toBe(mondays.length);
    await history.tap(history.byDate);
    await expect.poll(() => history.dtRows.count()).toBe(7);
  });

  it('draws the range as a chart, then turns it fullscreen', async () => {
    const history = new DeviceHistoryPage(journey.page);
    await history.tap(history.paramTab);
    await history.tap(history.displayToggle);
    await history.waitForChart(history.paramChart);
    await journey.shot(journey.page, 'range-chart');
    await history.tap(history.fullscreenButton);
    await history.rotated.waitFor();
    await history.waitForChart(history.paramChart);
    await journey.shot(journey.page, 'range-chart-fullscreen');
    await history.tap(history.fullscreenButton);
    await history.rotated.waitFor({ state: 'detached' });
  });

  it('back to one day, two days further back: its hours, with no minutes kept (issue 25)', async () => {
    const history = new DeviceHistoryPage(journey.page);
    await history.tap(history.dayMode);
    await history.waitForChart(history.paramChart);
    await history.tap(history.previousDay);
    const day = journey.page.waitForResponse(
      (r) => r.url().includes(historyApi.history.path) && r.url().includes(daysAgo(3)),
    );
    await history.tap(history.previousDay);
    const reply = (await (await day).json()) as { data: HistoryReply };
    expect(reply.data.threeParamList.filter((h) => h.hasData)).toHaveLength(24);
    await expect.poll(() => history.dayShown()).toBe(daysAgo(3));
    await history.waitForChart(history.paramChart);
    await history.topTab.waitFor();
    expect(await history.noData.count()).toBe(0);
    await journey.shot(journey.page, 'day-older-hours');
  });

  it('a failed request shows the retry row; tapping it loads the day', async () => {
    const { page } = journey;
    const history = new DeviceHistoryPage(page);
    const figures = `**${historyApi.history.path}?**`;
    await page.route(figures, (route) => route.abort());
    await history.open(FAULTY);
    await history.retry.waitFor();
    // The failure's toast (网络异常) goes; the retry row stays.
    await new Toast(page).waitUntilGone();
    await journey.shot(page, 'history-retry');
    await page.unroute(figures);
    await history.retry.tap();
    await history.waitForChart(history.paramChart);
  });

  it('opens the device log of a machine in fault: its current warning flagged', async () => {
    const log = new DeviceLogPage(journey.page);
    await log.open(WAITING);
    await log.currentWarnings.first().waitFor();
    expect(await log.texts(log.currentWarnings)).toContainEqual(
      expect.stringContaining('E518 温度过高'),
    );
    expect(await log.currentWarnings.first().getAttribute('data-state')).toBe('1');
    await journey.shot(journey.page, 'log-stop-alarms');
  });

  it('reads the operation log page by page', async () => {
    const log = new DeviceLogPage(journey.page);
    await log.operationsTab.tap();
    await log.operations.first().waitFor();
    expect(await log.operations.count()).toBe(11);
    expect(await log.position()).toBe('1/2');
    await journey.shot(journey.page, 'log-operations');
    await log.operationNext.tap();
    await expect.poll(() => log.position()).toBe('2/2');
    // The seeded 14 lines, plus what the live demo (and earlier journeys) logged today.
    const onLastPage = await log.operations.count();
    expect(onLastPage).toBeGreaterThan(0);
    expect(onLastPage).toBeLessThanOrEqual(11);
    await journey.shot(journey.page, 'log-operations-page-2');
  });

  it('a day a year back logged nothing: the empty notice', async () => {
    const log = new DeviceLogPage(journey.page);
    const today = daysAgo(0);
    const yearBack = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
    await log.chooseDay(yearBack);
    await expect.poll(() => log.dayShown()).toBe(yearBack);
    await expect.poll(() => log.listState.textContent()).toBe('暂无数据');
    expect(await log.operations.count()).toBe(0);
    await journey.shot(journey.page, 'log-empty');
  });
});
