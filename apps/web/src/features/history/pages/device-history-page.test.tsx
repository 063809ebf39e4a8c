import type {
  DetailRow,
  DtRow,
  HistoryReply,
  ThreeParamPoint,
  TopAlarm,
} from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { listMessages } from '@linewatch/contracts/list-messages';
import { webMessages } from '../../../shared/messages.ts';
import { links, paths } from '../../../shared/paths.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import { addDays, defaultDay, defaultRange } from '../dates.ts';

const row = (dataDate: string, overrides: Partial<DetailRow> = {}): DetailRow => ({
  dataDate,
  hasData: true,
  ppm: 60,
  maxPPM: 70,
  averagePPM: 50,
  excellentRate: 95,
  yieId: 97,
  useRate: 85,
  okNum: 900,
  produceNumber: 950,
  ngNumber: 50,
  ppmTarget: 55,
  excellentRateTarget: 90,
  yieIdTarget: 95,
  useRateTarget: 80,
  partial: false,
  ...overrides,
});
const point = (r: DetailRow): ThreeParamPoint => ({
  date: r.dataDate,
  activation: r.useRate,
  yield: r.yieId,
  ppm: r.ppm,
});
const dtRow = (dataDate: string, dtTime: number): DtRow => ({ dataDate, hasData: true, dtTime });
const top: TopAlarm = {
  code: 'E205',
  description: '气压不足',
  times: 3,
  duration: 42,
  percentage: 100,
  artificialDes: '检查气源压力',
};

const reply = (rows: DetailRow[], overrides: Partial<HistoryReply> = {}): HistoryReply => ({
  projectId: '',
  snCode: 'SN-1',
  nickSnCode: '一号机',
  deviceName: '点胶机',
  nickDeviceName: '',
  pageType: 'date',
  hasData: rows.some((r) => r.hasData),
  threeParam: rows.map(point),
  dt: rows.map((r) => ({ date: r.dataDate, value: 0 })),
  dtTop: [top],
  threeParamList: rows,
  dtList: rows.map((r) => dtRow(r.dataDate, 0)),
  ...overrides,
});

/** A server with data on every day but the one named empty. */
const historyServer = (emptyDay?: string) =>
  fakeApi()
    .on(historyApi.history, (q) =>
      q.beginTime === emptyDay
        ? reply([row(`${String(q.beginTime)}`, { hasData: false, ppm: null })], { dtTop: [] })
        : reply([row(String(q.beginTime)), row(String(q.endTime))]),
    )
    .on(historyApi.historyDt, (q) => ({
      snCode: 'SN-1',
      pageType: 'date' as const,
      hasData: true,
      dt: [{ date: String(q.beginTime), value: 12 }],
      dtList: [dtRow(String(q.beginTime), 0), dtRow(String(q.endTime), 12)],
    }))
    .on(historyApi.detail, (q) => ({
      detailData: [
        row(String(q.startTime)),
        row(String(q.endTime), { ppm: 40, excellentRate: null }),
      ],
      dtData: [],
    }));

/** The page is a lazy chunk: its first render waits for it (slow on a busy machine). */
const FIRST = { timeout: 10_000 };
const title = () => screen.getByRole('heading', { level: 1 }).textContent;
const titled = (machine: string) => vi.waitFor(() => expect(title()).toBe(machine), FIRST);
/** A chart is drawn on a canvas with no words: its test id is all there is to find it by. */
const chart = (testId: string) => screen.queryByTestId(testId);
const findChart = (testId: string) => screen.findByTestId(testId, {}, FIRST);
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
const tab = (name: string) => screen.getByRole('tab', { name });
/** The range table's rows, its header row left out. */
const tableRows = () => screen.getAllByRole('row').slice(1);
const dtRows = () => {
  const list = screen.queryByRole('list', { name: 'DT' });
  return list ? within(list).queryAllByRole('listitem') : [];
};
/** The day shown between the arrows: the picker's button. */
const shownDay = () => screen.getByRole('button', { name: /^\d{4}-\d{2}-\d{2}$/ }).textContent;

describe('device history page', { timeout: 30_000 }, () => {
  it('opens on yesterday by hour, titled with the nicknamed SN, and steps back a day', async () => {
    const { api, user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), {
      api: historyServer(),
    });
    await titled('点胶机（一号机）');
    expect(api.calls(historyApi.history)[0]).toMatchObject({
      snCode: 'SN-1',
      beginTime: defaultDay(),
      endTime: defaultDay(),
    });
    expect(await findChart('param-chart')).toBeTruthy();
    await user.click(button('前一天'));
    await vi.waitFor(() =>
      expect(api.calls(historyApi.history).at(-1)).toMatchObject({
        beginTime: addDays(defaultDay(), -1),
      }),
    );
    expect(tab('报警TOP5')).toBeTruthy();
  });

  it('never shows the previous day’s chart under a day still loading, or one that failed', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = addDays(defaultDay(), -1);
    const api = fakeApi().on(historyApi.history, async (q) => {
      if (q.beginTime !== before) return reply([row(String(q.beginTime))]);
      await held;
      // The network went while it loaded (offline, the api client fails it at once).
      return failure('network', '网络异常，请检查网络连接');
    });
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), { api });
    await findChart('param-chart');
    await user.click(button('前一天'));
    await vi.waitFor(() => expect(api.calls(historyApi.history)).toHaveLength(2));
    expect(chart('param-chart')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(webMessages.loading);
    release();
    await screen.findByRole('button', { name: listMessages.retry });
    expect(chart('param-chart')).toBeNull();
    // The machine is still named by the day that loaded, not by its SN.
    expect(title()).toBe('点胶机（一号机）');
  });

  it('stops the day arrows at the calendar’s ends: 2014 and today', async () => {
    // Only the clock is faked: the page opens on 2014-01-01, the first day of the calendar.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2014, 0, 2, 12));
    try {
      const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), {
        api: historyServer(),
      });
      await titled('点胶机（一号机）');
      expect(shownDay()).toBe('2014-01-01');
      expect(button('前一天').disabled).toBe(true);
      await user.click(button('后一天'));
      await vi.waitFor(() => expect(shownDay()).toBe('2014-01-02'));
      expect(button('后一天').disabled).toBe(true);
      expect(button('前一天').disabled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says 该日期无生产数据 on a day with nothing, and offers no TOP5', async () => {
    renderPage(links.machine(paths.deviceHistory, 'SN-1'), { api: historyServer(defaultDay()) });
    expect(await screen.findByText('该日期无生产数据', {}, FIRST)).toBeTruthy();
    expect(screen.queryByRole('tab', { name: '报警TOP5' })).toBeNull();
  });

  it('range view is a table of the last 7 days: targets, colours, the warning mark', async () => {
    const { api, user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), {
      api: historyServer(),
    });
    await findChart('param-chart');
    await user.click(button('区间'));
    await screen.findByRole('table', {}, FIRST);
    const rows = tableRows();
    const range = defaultRange();
    expect(api.calls(historyApi.detail).at(-1)).toMatchObject({
      startTime: range.from,
      endTime: range.to,
    });
    expect(within(rows[0]!).queryByRole('img', { name: '未达标' })).toBeNull();
    // PPM 40 against 55: red, and the row carries the warning mark; 优率 with no data is neutral.
    expect(within(rows[1]!).getByRole('img', { name: '未达标' })).toBeTruthy();
    // data-ok is the colour a figure is drawn in, which has no accessible form.
    const cells = within(rows[1]!).getAllByRole('cell');
    expect(cells[0]!.dataset.ok).toBe('false');
    expect(cells[1]!.dataset.ok).toBe('none');
    expect(cells[1]!.textContent).toContain('—');
    expect(cells[3]!.textContent).toBe('900');

    await user.click(tab('DT'));
    await screen.findByRole('list', { name: 'DT' });
    // data-zero is the colour of a day (green with no DT), which has no accessible form.
    expect(dtRows().map((d) => d.dataset.zero)).toEqual(['true', 'false']);

    // Back to one day: the chart again.
    await user.click(button('单日'));
    expect(await findChart('dt-chart')).toBeTruthy();
  });

  it('a day of the DT list with no data is neither green nor red: no data is not a DT of 0', async () => {
    const range = defaultRange();
    const api = historyServer().on(historyApi.historyDt, () => ({
      snCode: 'SN-1',
      pageType: 'date' as const,
      hasData: true,
      dt: [],
      dtList: [dtRow(range.from, 0), { dataDate: range.to, hasData: false, dtTime: 0 }],
    }));
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), { api });
    await findChart('param-chart');
    await user.click(button('区间'));
    await screen.findByRole('table', {}, FIRST);
    await user.click(tab('DT'));
    await screen.findByRole('list', { name: 'DT' });
    const dts = dtRows();
    expect(dts.map((d) => d.dataset.zero)).toEqual(['true', 'none']);
    expect(dts[1]!.textContent).toContain('无生产数据');
  });

  it('range by week: 按周 asks for pageType week, and the table and DT list go by week', async () => {
    const weeks = ['2026-11-02', '2026-11-09'];
    const api = fakeApi()
      .on(historyApi.history, (q) =>
        q.pageType === 'week'
          ? reply(
              weeks.map((w) => row(w, { ppm: 40 })),
              { pageType: 'week' },
            )
          : reply([row(String(q.beginTime)), row(String(q.endTime))]),
      )
      .on(historyApi.historyDt, (q) => ({
        snCode: 'SN-1',
        pageType: q.pageType === 'week' ? ('week' as const) : ('date' as const),
        hasData: true,
        dt: [],
        dtList:
          q.pageType === 'week' ? weeks.map((w) => dtRow(w, 30)) : [dtRow(String(q.beginTime), 0)],
      }))
      .on(historyApi.detail, (q) => ({ detailData: [row(String(q.startTime))], dtData: [] }));
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), { api });
    await findChart('param-chart');
    // The day view has no grouping: a day is shown by hour.
    expect(screen.queryByRole('button', { name: '按周' })).toBeNull();
    await user.click(button('区间'));
    await screen.findByRole('table', {}, FIRST);
    expect(button('按日').getAttribute('aria-pressed')).toBe('true');
    expect(api.calls(historyApi.history).at(-1)).toMatchObject({ pageType: 'date' });
    const detailCalls = api.calls(historyApi.detail).length;

    await user.click(button('按周'));
    const range = defaultRange();
    await vi.waitFor(() =>
      expect(api.calls(historyApi.history).at(-1)).toMatchObject({
        snCode: 'SN-1',
        beginTime: range.from,
        endTime: range.to,
        pageType: 'week',
      }),
    );
    await vi.waitFor(() =>
      expect(tableRows().map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
        '11-02起!',
        '11-09起!',
      ]),
    );
    expect(screen.getByRole('columnheader', { name: '周' })).toBeTruthy();
    // The weekly rows come with the history reply: no call of the day-by-day detail.
    expect(api.calls(historyApi.detail)).toHaveLength(detailCalls);

    await user.click(tab('DT'));
    await vi.waitFor(() =>
      expect(dtRows().map((r) => r.textContent)).toEqual([
        '2026-11-02起一周00:30:00',
        '2026-11-09起一周00:30:00',
      ]),
    );
    expect(api.calls(historyApi.historyDt).at(-1)).toMatchObject({ pageType: 'week' });

    // Back to 按日: the day-by-day table again (its figures already fetched).
    await user.click(tab('参数数据'));
    await user.click(button('按日'));
    await vi.waitFor(() =>
      expect(tableRows().map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
        range.from.slice(5),
      ]),
    );
    expect(screen.getByRole('columnheader', { name: '日期' })).toBeTruthy();
  });

  it('never shows the day’s hours as the range’s DT list while the range loads', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hours = Array.from({ length: 24 }, (_, h) =>
      dtRow(`${String(h).padStart(2, '0')}:00`, 0),
    );
    const api = fakeApi()
      .on(historyApi.history, (q) => reply([row(String(q.beginTime)), row(String(q.endTime))]))
      .on(historyApi.historyDt, async (q) => {
        const range = q.beginTime !== q.endTime;
        if (range) await held;
        return {
          snCode: 'SN-1',
          pageType: 'date' as const,
          hasData: true,
          dt: [],
          dtList: range ? [dtRow(String(q.beginTime), 0), dtRow(String(q.endTime), 5)] : hours,
        };
      })
      .on(historyApi.detail, (q) => ({ detailData: [row(String(q.startTime))], dtData: [] }));
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), { api });
    await user.click(await screen.findByRole('tab', { name: 'DT' }, FIRST));
    await findChart('dt-chart');
    await user.click(button('区间'));
    await vi.waitFor(() => expect(api.calls(historyApi.historyDt)).toHaveLength(2));
    expect(dtRows()).toHaveLength(0);
    release();
    await vi.waitFor(() => expect(dtRows()).toHaveLength(2));
  });

  it('shows the alarm TOP5 with the manual description', async () => {
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), {
      api: historyServer(),
    });
    await user.click(await screen.findByRole('tab', { name: '报警TOP5' }, FIRST));
    const item = within(await screen.findByRole('list', { name: '报警TOP5' })).getByRole(
      'listitem',
    );
    expect(item.textContent).toContain('E205');
    expect(item.textContent).toContain('次数 3');
    expect(item.textContent).toContain('时长 42 分钟');
    expect(item.textContent).toContain('检查气源压力');
  });

  it('fullscreen turns the chart a quarter and back', async () => {
    const { user } = renderPage(links.machine(paths.deviceHistory, 'SN-1'), {
      api: historyServer(),
    });
    await user.click(await screen.findByRole('button', { name: '全屏' }, FIRST));
    // The quarter turn is layout: the rotated frame has no role or words of its own.
    expect(screen.getByTestId('param-chart-rotated')).toBeTruthy();
    await user.click(button('退出全屏'));
    expect(screen.queryByTestId('param-chart-rotated')).toBeNull();
    expect(button('全屏')).toBeTruthy();
  });

  it('a machine outside the user’s lines says 无权查看', async () => {
    renderPage(links.machine(paths.deviceHistory, 'SN-X'), {
      api: fakeApi().on(historyApi.history, () => failure('0403', '无权查看，请联系管理员', 403)),
    });
    expect(await screen.findByText('无权查看，请联系管理员', {}, FIRST)).toBeTruthy();
  });

  it('/threeParam from a message link is the same history', async () => {
    renderPage(`${paths.threeParam}?snCode=SN-1`, { api: historyServer() });
    await titled('点胶机（一号机）');
  });
});
