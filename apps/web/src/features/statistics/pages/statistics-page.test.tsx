import { ReplyCode } from '@linewatch/contracts/envelope';
import { type StatisticsRow } from '@linewatch/contracts/statistics';
import { statisticsMessages } from '@linewatch/contracts/statistics-rules';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { listMessages } from '@linewatch/contracts/list-messages';
import { webMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { buildStatisticsRow } from '../../../testing/builders.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import { formatDateTime } from '../default-range.ts';

const rows: StatisticsRow[] = Array.from({ length: 7 }, (_, i) =>
  buildStatisticsRow({ machineCode: `SN-${i + 1}` }),
);
// The first card misses every target; the second has no data for its ratios.
rows[0] = buildStatisticsRow({
  machineCode: 'SN-1',
  nickSnCode: '一号机',
  produceNumber: 80,
  produceTargetNumber: 90,
  ngNumber: 3,
  ngTargetNumber: 2,
  yield: 98,
  yieldTarget: 98,
  avgPPM: 9.5,
  maxPPM: 9,
  ppmTarget: 10,
  useRate: 80,
  useRateTarget: 80,
  runningTime: 3725,
});
rows[1] = buildStatisticsRow({ machineCode: 'SN-2', yield: null, avgPPM: null, useRate: null });

const statisticsServer = () =>
  fakeApi()
    .on(statisticsApi.productLines, () => [
      { label: '一号产线', value: '一号产线' },
      { label: '二号产线', value: '二号产线' },
    ])
    .on(statisticsApi.productGroups, (q) =>
      q.productLine === '一号产线' ? [{ label: '点胶', value: '点胶' }] : [],
    )
    .on(statisticsApi.statistics, (q) => {
      const page = Number(q.pageIndex);
      const size = Number(q.pageSize);
      return { data: rows.slice((page - 1) * size, page * size), total: rows.length };
    });

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const optionsOf = (label: string) => within(field(label)).getAllByRole('option');
/** Sets a time field as the picker would ('YYYY-MM-DDTHH:mm:ss'). */
const setTime = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value: value.replace(' ', 'T') } });
const search = () => screen.getByRole('button', { name: '查询' });
/** The page is a lazy chunk behind the guard: on a busy machine its first render takes a while. */
const opened = () => screen.findByRole('button', { name: '查询' }, { timeout: 10_000 });
const problem = () => screen.queryByRole('alert')?.textContent ?? null;
const cards = () => screen.queryAllByRole('article');
/** A figure by its name; data-ok is the colour it is drawn in, which has no accessible form. */
const metric = (card: HTMLElement, name: string) => within(card).getByRole('group', { name });
/** A time of the card's list of times (a <dl>: each term followed by its value). */
const timeOf = (card: HTMLElement, name: string) => {
  const terms = within(card)
    .getAllByRole('term')
    .map((t) => t.textContent);
  return within(card).getAllByRole('definition')[terms.indexOf(name)]?.textContent;
};

describe('statistics search', { timeout: 30_000 }, () => {
  it('starts at 08:00 (today or yesterday) and ends now', async () => {
    renderPage(paths.deviceStatistics, { api: statisticsServer() });
    await opened();
    expect(field('开始时间').value).toMatch(/^\d{4}-\d{2}-\d{2}T08:00(:00)?$/);
    expect(Math.abs(Date.parse(field('结束时间').value) - Date.now())).toBeLessThan(60_000);
  });

  it('asks for a product line before a product group, then lists that line’s groups', async () => {
    const { user } = renderPage(paths.deviceStatistics, { api: statisticsServer() });
    await opened();
    await user.click(field('产品组'));
    expect(problem()).toBe(statisticsMessages.lineFirst);
    await vi.waitFor(() => expect(optionsOf('产品线')).toHaveLength(3));
    await user.selectOptions(field('产品线'), '一号产线');
    await vi.waitFor(() => expect(optionsOf('产品组')).toHaveLength(2));
  });

  describe('refuses a bad range with the spec message, asking the server nothing', () => {
    const day = 86_400_000;
    const cases: [string, () => [string, string], string][] = [
      ['no start time', () => ['', formatDateTime(new Date())], statisticsMessages.timeRequired],
      [
        'a start after the end',
        () => [
          formatDateTime(new Date(Date.now() - 60_000)),
          formatDateTime(new Date(Date.now() - 2 * day)),
        ],
        statisticsMessages.startAfterEnd,
      ],
      [
        'an end later than now',
        () => [
          formatDateTime(new Date(Date.now() - day)),
          formatDateTime(new Date(Date.now() + day)),
        ],
        statisticsMessages.future,
      ],
      [
        'a range over 31 days',
        () => [formatDateTime(new Date(Date.now() - 40 * day)), formatDateTime(new Date())],
        statisticsMessages.rangeTooLong,
      ],
    ];
    it.each(cases)('%s', async (_name, range, message) => {
      const api = statisticsServer();
      const { user } = renderPage(paths.deviceStatistics, { api });
      await opened();
      const [start, end] = range();
      setTime('开始时间', start);
      setTime('结束时间', end);
      await user.click(search());
      expect(problem()).toBe(message);
      expect(api.calls(statisticsApi.statistics)).toHaveLength(0);
    });
  });

  it('shows five cards a page with every figure and its colour, then the rest', async () => {
    const api = statisticsServer();
    const { user } = renderPage(paths.deviceStatistics, { api });
    await opened();
    await vi.waitFor(() => expect(optionsOf('产品线')).toHaveLength(3));
    await user.selectOptions(field('产品线'), '一号产线');
    await vi.waitFor(() => expect(optionsOf('产品组')).toHaveLength(2));
    await user.selectOptions(field('产品组'), '点胶');
    await user.click(search());
    await vi.waitFor(() => expect(cards()).toHaveLength(5));
    const sent = api.calls(statisticsApi.statistics)[0]!;
    expect(sent).toMatchObject({
      pageIndex: '1',
      pageSize: '5',
    });
    expect(sent.dataStartDate).toMatch(/^\d{4}-\d{2}-\d{2} 08:00:00$/);
    expect(JSON.parse(String(sent.filters))).toEqual({
      productLine: '一号产线',
      productGroup: '点胶',
    });
    expect(screen.getByText('共 7 台')).toBeTruthy();

    const [missed, noData, met] = cards() as [HTMLElement, HTMLElement, HTMLElement];
    expect(missed.textContent).toContain('一号机');
    expect(missed.textContent).toContain('SN：SN-1');
    // Produced ≥ target, NG ≤ target, PPMs ≥ target, yield and utilisation above target.
    for (const name of ['产量', 'NG数', '良率', '稼动率', '平均PPM', '最大PPM'])
      expect(metric(missed, name).dataset.ok).toBe('false');
    for (const name of ['产量', 'NG数', '良率', '稼动率', '平均PPM', '最大PPM'])
      expect(metric(met, name).dataset.ok).toBe('true');
    expect(metric(missed, '产量').textContent).toBe('产量80/90');
    expect(metric(missed, '良率').textContent).toBe('良率98%/98%');
    expect(timeOf(missed, '运行时间')).toBe('01:02:05');
    for (const time of ['故障时间', '等待时间', '前工序等待', '后工序等待'])
      expect(timeOf(missed, time)).toBeDefined();
    // No data is "—", neither red nor green.
    expect(metric(noData, '良率').dataset.ok).toBe('none');
    expect(metric(noData, '良率').textContent).toContain('—');
    expect(metric(noData, '平均PPM').textContent).toContain('—');

    await user.click(screen.getByRole('button', { name: webMessages.loadMore }));
    await vi.waitFor(() => expect(cards()).toHaveLength(7));
    expect(screen.getByText(listMessages.noMore)).toBeTruthy();
  });

  it('says 获取产品线失败 when the lines cannot be read (docs/product.md section 8)', async () => {
    const api = statisticsServer().on(statisticsApi.productLines, () =>
      failure(ReplyCode.fault, '数据库不可用', 500),
    );
    renderPage(paths.deviceStatistics, { api });
    await opened();
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain(`${statisticsMessages.lineFailed}：数据库不可用`),
    );
  });

  it('says 获取产品组失败 when a line’s groups cannot be read', async () => {
    const api = statisticsServer().on(statisticsApi.productGroups, () =>
      failure(ReplyCode.fault, '数据库不可用', 500),
    );
    renderPage(paths.deviceStatistics, { api });
    await opened();
    await vi.waitFor(() => expect(field('产品线').textContent).toContain('一号产线'));
    fireEvent.change(field('产品线'), { target: { value: '一号产线' } });
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain(
        `${statisticsMessages.groupFailed}：数据库不可用`,
      ),
    );
  });

  it('says 查无数据 when no machine matches the search', async () => {
    const api = statisticsServer().on(statisticsApi.statistics, () => ({ data: [], total: 0 }));
    const { user } = renderPage(paths.deviceStatistics, { api });
    await opened();
    await user.click(search());
    await screen.findByText(listMessages.noResult);
    expect(cards()).toHaveLength(0);
  });

  it('offers a retry when the search fails, and shows the server’s message', async () => {
    let fail = true;
    const api = statisticsServer().on(statisticsApi.statistics, () =>
      fail
        ? failure(ReplyCode.badInput, statisticsMessages.unknownLine, 400)
        : { data: rows.slice(0, 2), total: 2 },
    );
    const { user } = renderPage(paths.deviceStatistics, { api });
    await opened();
    await user.click(search());
    const retry = await screen.findByRole('button', { name: listMessages.retry });
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain(statisticsMessages.unknownLine),
    );
    fail = false;
    await user.click(retry);
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('keeps the cards shown when their refresh fails; a retry row only for a first load', async () => {
    let offline = false;
    const api = statisticsServer().on(statisticsApi.statistics, () =>
      offline
        ? failure('network', '网络异常，请检查网络连接')
        : { data: rows.slice(0, 2), total: 2 },
    );
    const { user, client } = renderPage(paths.deviceStatistics, { api });
    await opened();
    await user.click(search());
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
    offline = true;
    await client.refetchQueries({ queryKey: ['statistics', 'list'] });
    await vi.waitFor(() => expect(api.calls(statisticsApi.statistics)).toHaveLength(2));
    // The failure is drawn (its toast), and the rows are still there.
    await vi.waitFor(() => expect(document.body.textContent).toContain('网络异常，请检查网络连接'));
    expect(cards()).toHaveLength(2);
    expect(screen.getByText('共 2 台')).toBeTruthy();
    expect(screen.queryByRole('button', { name: listMessages.retry })).toBeNull();
  });
});
