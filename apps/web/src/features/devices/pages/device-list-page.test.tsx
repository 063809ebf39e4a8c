import type { MachineCard, MenuNode } from '@linewatch/contracts/devices';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toast } from 'antd-mobile';
import { LIVE_REFRESH_MS } from '../api.ts';
import DeviceListPage from './device-list-page.tsx';

const menu: MenuNode[] = [
  { kind: 'all', text: '全部', count: 18 },
  { kind: 'follow', text: '我的关注', count: 0 },
  { kind: 'line', text: '一号产线', produceLine: 'L1', count: 17, children: [] },
  { kind: 'line', text: '二号产线', produceLine: 'L2', count: 1, children: [] },
];

const machine = (snCode: string, produceLine: string): MachineCard => ({
  snCode,
  nickSnCode: '',
  deviceName: '点胶机',
  deviceStatus: 'running',
  iot: 1,
  isCollect: false,
  produceLine,
  produceGroup: '',
  produceNumber: 1,
  produceTargetNumber: 1,
  produceTargetDue: 1,
  ngNumber: 0,
  ngTargetNumber: 0,
  ngTargetDue: 0,
  targetPartial: false,
  ppm: 1,
  maxPPM: 1,
  ppmTarget: 1,
  superiorityRate: 99,
  superiorityRateTarget: 98,
  yield: 99,
  yieldTarget: 98,
  useRate: 90,
  useRateTarget: 80,
});

const machines = [
  ...Array.from({ length: 17 }, (_, i) => machine(`L1-${String(i + 1).padStart(2, '0')}`, 'L1')),
  machine('L2-01', 'L2'),
];
machines[16]!.deviceStatus = 'error';
const HIDDEN_SN = 'HIDDEN-01';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ success: true, code: '0000', msg: '', data }));

const addressOf = (input: RequestInfo | URL): URL =>
  new URL(
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    'http://app.test',
  );

const fakeServer = vi.fn(async (input: RequestInfo | URL) => {
  const url = addressOf(input);
  if (url.pathname.endsWith('/getProcessAndCount')) return ok(menu);
  const q = url.searchParams;
  if (q.get('nameTag') === HIDDEN_SN && url.pathname.endsWith('/findMachineDataByCondition'))
    return new Response(
      JSON.stringify({ success: false, code: '0403', msg: '无权查看，请联系管理员', data: null }),
      { status: 403 },
    );
  const hits = machines.filter(
    (m) =>
      (!q.has('produceLine') || m.produceLine === q.get('produceLine')) &&
      (!q.has('deviceStatus') || m.deviceStatus === q.get('deviceStatus')) &&
      m.snCode.includes(q.get('nameTag') ?? ''),
  );
  if (url.pathname.endsWith('/statusSummary')) {
    const summary = { running: 0, standBy: 0, error: 0, offLine: 0 };
    for (const m of hits) summary[m.deviceStatus] += 1;
    return ok(summary);
  }
  const size = Number(q.get('pageSize'));
  const index = Number(q.get('pageIndex'));
  return ok({ data: hits.slice((index - 1) * size, index * size), total: hits.length });
});

const renderPage = () => {
  const router = createMemoryRouter(
    [
      { path: '/deviceList', element: <DeviceListPage /> },
      { path: '/currentDataReport', element: <div data-testid="realtime-page" /> },
      { path: '/followSetting', element: <div data-testid="follow-setting" /> },
    ],
    { initialEntries: ['/deviceList'] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
};

const group = (key: string): HTMLElement => {
  const found = screen.getAllByTestId('device-group').find((node) => node.dataset.key === key);
  if (!found) throw new Error(`no group ${key}`);
  return found;
};

beforeEach(() => vi.stubGlobal('fetch', fakeServer));
afterEach(() => {
  vi.unstubAllGlobals();
  fakeServer.mockClear();
});

describe('device list page', () => {
  it('opens the first line, pages it by 15 and ends with 没有更多了', async () => {
    const { user } = renderPage();
    await waitFor(() =>
      expect(within(group('line:L1')).getAllByTestId('device-card')).toHaveLength(15),
    );
    expect(group('line:L2').dataset.expanded).toBe('false');

    await user.click(within(group('line:L1')).getByText('加载更多'));
    await waitFor(() =>
      expect(within(group('line:L1')).getAllByTestId('device-card')).toHaveLength(17),
    );
    expect(within(group('line:L1')).getByTestId('list-state').textContent).toBe('没有更多了');
    const pages = fakeServer.mock.calls
      .map(([input]) => addressOf(input).searchParams)
      .filter((q) => q.get('produceLine') === 'L1')
      .map((q) => [q.get('pageIndex'), q.get('pageSize')]);
    expect(pages).toEqual([
      ['1', '15'],
      ['2', '15'],
    ]);
  });

  it('opens a folded line on tap', async () => {
    const { user } = renderPage();
    await user.click(
      within(await waitFor(() => group('line:L2'))).getByTestId('device-group-header'),
    );
    await waitFor(() =>
      expect(within(group('line:L2')).getAllByTestId('device-card')).toHaveLength(1),
    );
  });

  it('shows one 查无数据, not one per line, when a search finds nothing', async () => {
    const { user } = renderPage();
    const search = await screen.findByPlaceholderText('搜索机台SN码/名称');
    await user.type(search, 'nothing{Enter}');
    await waitFor(() =>
      expect(screen.getAllByTestId('list-state').map((node) => node.textContent)).toEqual([
        '查无数据',
      ]),
    );
  });

  it('shows the hits of a search across lines in one list', async () => {
    const { user } = renderPage();
    const search = await screen.findByPlaceholderText('搜索机台SN码/名称');
    await user.type(search, '-01{Enter}');
    await waitFor(() =>
      expect(screen.getAllByTestId('device-card').map((c) => c.dataset.sn)).toEqual([
        'L1-01',
        'L2-01',
      ]),
    );
  });

  it('says 无权查看 once for an SN the user may not see and leaves the list as it was', async () => {
    const toast = vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));
    const { user } = renderPage();
    await waitFor(() =>
      expect(within(group('line:L1')).getAllByTestId('device-card')).toHaveLength(15),
    );
    toast.mockClear();
    await user.type(screen.getByPlaceholderText('搜索机台SN码/名称'), `${HIDDEN_SN}{Enter}`);
    await waitFor(() => expect(toast).toHaveBeenCalled());
    const shown = toast.mock.calls.map(([props]) =>
      typeof props === 'string' ? props : props.content,
    );
    expect(shown).toEqual(['无权查看，请联系管理员']);
    expect(within(group('line:L1')).getAllByTestId('device-card')).toHaveLength(15);
    expect(screen.queryByText('请求失败，点击重新加载')).toBeNull();
    toast.mockRestore();
  });

  it('counts machines by status, and a tap on 故障 lists only those', async () => {
    const { user } = renderPage();
    const bar = await screen.findByTestId('status-summary');
    await waitFor(() =>
      expect(within(bar).getByTestId('status-summary-running').textContent).toBe('17运行'),
    );
    expect(within(bar).getByTestId('status-summary-error').textContent).toBe('1故障');
    expect(screen.getByTestId('list-updated-at').textContent).toMatch(/^更新于 \d{2}:\d{2}:\d{2}$/);
    await user.click(within(bar).getByTestId('status-summary-error'));
    await waitFor(() =>
      expect(screen.getAllByTestId('device-card').map((c) => c.dataset.sn)).toEqual(['L1-17']),
    );
    await user.click(within(bar).getByTestId('status-summary-error'));
    await waitFor(() => expect(group('line:L1')).toBeDefined());
  });

  it('refreshes the open list while it is shown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPage();
      await waitFor(() =>
        expect(within(group('line:L1')).getAllByTestId('device-card')).toHaveLength(15),
      );
      const firstPages = () =>
        fakeServer.mock.calls.filter(([input]) => {
          const q = addressOf(input).searchParams;
          return q.get('produceLine') === 'L1' && q.get('pageIndex') === '1';
        }).length;
      expect(firstPages()).toBe(1);
      machines[0]!.deviceStatus = 'error';
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await waitFor(() => expect(firstPages()).toBe(2));
      await waitFor(() =>
        expect(within(group('line:L1')).getAllByTestId('device-card')[0]?.textContent).toContain(
          '故障',
        ),
      );
    } finally {
      machines[0]!.deviceStatus = 'running';
      vi.useRealTimers();
    }
  });

  it('opens the real-time report of a tapped card', async () => {
    const { router, user } = renderPage();
    const [first] = await screen.findAllByTestId('device-card');
    await user.click(first as HTMLElement);
    await screen.findByTestId('realtime-page');
    expect(router.state.location.search).toBe('?snCode=L1-01');
  });

  it('selects cards in subscribe mode and names at most 8 of them', async () => {
    const { router, user } = renderPage();
    await screen.findAllByTestId('device-card');
    await user.click(screen.getByTestId('subscribe-toggle'));
    for (const card of screen.getAllByTestId('device-card').slice(0, 9)) await user.click(card);

    expect(screen.getByTestId('selection-count').textContent).toBe('9');
    const named = screen.getByTestId('selection-list').textContent ?? '';
    expect(named).toContain('L1-08');
    expect(named).not.toContain('L1-09');
    expect(named.endsWith('…')).toBe(true);

    await user.click(screen.getByTestId('selection-confirm'));
    await screen.findByTestId('follow-setting');
    expect(
      new URLSearchParams(router.state.location.search).get('snCode')?.split(','),
    ).toHaveLength(9);
  });
});
