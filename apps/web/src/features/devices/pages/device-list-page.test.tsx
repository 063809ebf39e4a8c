import {
  deviceMessages,
  type MachineCard,
  type MenuNode,
  type StatusSummary,
} from '@linewatch/contracts/devices';
import { devicesApi } from '@linewatch/contracts/devices-api';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toast } from 'antd-mobile';
import { webMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { queryKeys } from '../../../shared/query-keys.ts';
import { buildLineNode, buildMachineCard } from '../../../testing/builders.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { FakeSocket } from '../../../testing/fake-socket.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import { LIVE_REFRESH_MS } from '../../../shared/live-refresh.ts';

const menu: MenuNode[] = [
  { kind: 'all', text: '全部', count: 18 },
  { kind: 'follow', text: '我的关注', count: 0 },
  buildLineNode('L1', '一号产线', 17),
  buildLineNode('L2', '二号产线', 1),
];

const machines: MachineCard[] = [
  ...Array.from({ length: 17 }, (_, i) =>
    buildMachineCard({ snCode: `L1-${String(i + 1).padStart(2, '0')}`, produceLine: 'L1' }),
  ),
  buildMachineCard({ snCode: 'L2-01', produceLine: 'L2' }),
];
machines[16]!.deviceStatus = 'error';
const HIDDEN_SN = 'HIDDEN-01';

type Narrowing = Partial<Record<'produceLine' | 'deviceStatus' | 'nameTag', unknown>>;
const hitsFor = (q: Narrowing) =>
  machines.filter(
    (m) =>
      (q.produceLine === undefined || m.produceLine === q.produceLine) &&
      (q.deviceStatus === undefined || m.deviceStatus === q.deviceStatus) &&
      m.snCode.includes(typeof q.nameTag === 'string' ? q.nameTag : ''),
  );

/** The server of the device list: its menu, its pages of cards and its status counts. */
const deviceServer = () =>
  fakeApi()
    .on(devicesApi.processMenu, () => menu)
    .on(devicesApi.machineList, (q) => {
      if (q.nameTag === HIDDEN_SN) return failure('0403', '无权查看，请联系管理员', 403);
      const hits = hitsFor(q);
      const size = Number(q.pageSize);
      const index = Number(q.pageIndex);
      return { data: hits.slice((index - 1) * size, index * size), total: hits.length };
    })
    .on(devicesApi.statusSummary, (q) => {
      const summary: StatusSummary = { running: 0, standBy: 0, error: 0, offLine: 0 };
      for (const m of hitsFor(q)) summary[m.deviceStatus] += 1;
      return summary;
    });

const openList = () => renderPage(paths.deviceList, { api: deviceServer() });

/**
 * vi.waitFor with room: role queries over fifteen cards take their time in jsdom, and on CI's
 * two loaded cores the default second ran out once before the first page was drawn.
 */
const eventually = <T,>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000 });

/** A line's group of cards, a region named by its line. */
const group = (line: string): HTMLElement => screen.getByRole('region', { name: line });
const cardsIn = (element: HTMLElement) => within(element).queryAllByRole('article');
/** The cards listed, by their machine's name (no nickname here: the SN code). */
const cardNames = () =>
  screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
const statusBar = () => screen.findByRole('group', { name: '设备状态' });
/** The kept room of a line's cards is layout, nothing a user reads: its body has a test id. */
const groupBody = (element: HTMLElement) => within(element).getByTestId('device-group-body');

// A tapped card opens the real-time report, whose page opens its socket.
beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => {
  FakeSocket.last = null;
});

describe('device list page', () => {
  it('asks for the first page once on load', async () => {
    const { api } = openList();
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    // The counts, asked in the same render as the list, have been asked too.
    await eventually(() => expect(api.calls(devicesApi.statusSummary).length).toBeGreaterThan(0));
    const firstPages = api.calls(devicesApi.machineList).filter((q) => q.pageIndex === '1');
    expect(firstPages).toHaveLength(1);
  }, 15_000);

  it('opens the first line, pages it by 15 and ends with 没有更多了', async () => {
    const { api, user } = openList();
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    expect(
      within(group('二号产线'))
        .getByRole('button', { name: /二号产线/ })
        .getAttribute('aria-expanded'),
    ).toBe('false');

    await user.click(within(group('一号产线')).getByText('加载更多'));
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(17));
    expect(within(group('一号产线')).getByRole('status').textContent).toBe('没有更多了');
    const pages = api
      .calls(devicesApi.machineList)
      .filter((q) => q.produceLine === 'L1')
      .map((q) => [q.pageIndex, q.pageSize]);
    expect(pages).toEqual([
      ['1', '15'],
      ['2', '15'],
    ]);
  });

  it('keeps room for the first page of cards while it loads, so the lines below do not move', async () => {
    let answer: (() => void) | undefined;
    const api = deviceServer();
    api.on(devicesApi.machineList, async (q) => {
      await new Promise<void>((resolve) => (answer = resolve));
      const hits = hitsFor(q);
      return { data: hits.slice(0, Number(q.pageSize)), total: hits.length };
    });
    renderPage(paths.deviceList, { api });
    const body = await eventually(() => groupBody(group('一号产线')));
    // 17 machines in the line's menu entry: room for the first page's 15 cards.
    expect(body.style.minHeight).toBe(`${15 * 174}px`);
    answer?.();
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    expect(groupBody(group('一号产线')).style.minHeight).toBe('');
  });

  it('reads as loading, with room kept, until the cards are drawn: never 暂无数据 before them', async () => {
    // The cards draw from a deferred copy of the reply; in between, the line has its reply and
    // no cards. Every state the line showed with no card is recorded.
    const shownWithoutCards: string[] = [];
    const watch = new MutationObserver(() => {
      const line = screen.queryByRole('region', { name: '一号产线' });
      if (!line || cardsIn(line).length > 0) return;
      const state = within(line).queryByRole('status')?.textContent ?? 'none';
      const room = groupBody(line).style.minHeight;
      shownWithoutCards.push(`${state} ${room || 'no room'}`);
    });
    watch.observe(document.body, { subtree: true, childList: true, attributes: true });
    try {
      openList();
      await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    } finally {
      watch.disconnect();
    }
    expect(shownWithoutCards.length).toBeGreaterThan(0);
    expect(new Set(shownWithoutCards)).toEqual(new Set([`${webMessages.loading} ${15 * 174}px`]));
  });

  it('opens a folded line on tap', async () => {
    const { user } = openList();
    await user.click(
      within(await eventually(() => group('二号产线'))).getByRole('button', { expanded: false }),
    );
    await eventually(() => expect(cardsIn(group('二号产线'))).toHaveLength(1));
  });

  it('shows one 查无数据, not one per line, when a search finds nothing', async () => {
    const { user } = openList();
    const search = await screen.findByPlaceholderText('搜索机台SN码/名称');
    await user.type(search, 'nothing{Enter}');
    await eventually(() =>
      expect(screen.getAllByRole('status').map((node) => node.textContent)).toEqual(['查无数据']),
    );
    expect(screen.queryByRole('button', { name: webMessages.loadMore })).toBeNull();
  });

  it('shows the hits of a search across lines in one list', async () => {
    const { user } = openList();
    const search = await screen.findByPlaceholderText('搜索机台SN码/名称');
    await user.type(search, '-01{Enter}');
    await eventually(() => expect(cardNames()).toEqual(['L1-01', 'L2-01']));
  });

  it('says 无权查看 once for an SN the user may not see and leaves the list as it was', async () => {
    const toast = vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));
    const { user } = openList();
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    toast.mockClear();
    await user.type(screen.getByPlaceholderText('搜索机台SN码/名称'), `${HIDDEN_SN}{Enter}`);
    await eventually(() => expect(toast).toHaveBeenCalled());
    const shown = toast.mock.calls.map(([props]) =>
      typeof props === 'string' ? props : props.content,
    );
    expect(shown).toEqual(['无权查看，请联系管理员']);
    expect(cardsIn(group('一号产线'))).toHaveLength(15);
    expect(screen.queryByText('请求失败，点击重新加载')).toBeNull();
    toast.mockRestore();
  });

  it('says 获取设备列表失败 with the reason when the list cannot be read (docs/product.md section 8)', async () => {
    const toast = vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));
    const api = deviceServer().on(devicesApi.machineList, () =>
      failure('0500', '数据库不可用', 500),
    );
    renderPage(paths.deviceList, { api });
    await eventually(() =>
      expect(
        toast.mock.calls.map(([props]) => (typeof props === 'string' ? props : props.content)),
      ).toContain(`${deviceMessages.listFailed}：数据库不可用`),
    );
    expect((await screen.findAllByText('请求失败，点击重新加载')).length).toBeGreaterThan(0);
    toast.mockRestore();
  });

  it('counts machines by status, and a tap on 故障 lists only those', async () => {
    const { user } = openList();
    const bar = within(await statusBar());
    await bar.findByRole('button', { name: '17运行' });
    const error = bar.getByRole('button', { name: '1故障' });
    expect(screen.getByText(/^更新于 \d{2}:\d{2}:\d{2}$/)).toBeTruthy();
    await user.click(error);
    await eventually(() => expect(cardNames()).toEqual(['L1-17']));
    expect(error.getAttribute('aria-pressed')).toBe('true');
    await user.click(error);
    await eventually(() => expect(group('一号产线')).toBeDefined());
  });

  it('counts again when a status is tapped, so the counts match the list beside them', async () => {
    const api = deviceServer();
    const { user } = renderPage(paths.deviceList, { api });
    const bar = within(await statusBar());
    const error = await bar.findByRole('button', { name: '1故障' });
    const before = api.calls(devicesApi.statusSummary).length;
    await user.click(error);
    await eventually(() =>
      expect(api.calls(devicesApi.statusSummary).length).toBeGreaterThan(before),
    );
  });

  it('refreshes the open list while it is shown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { api } = openList();
      await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
      const firstPages = () =>
        api
          .calls(devicesApi.machineList)
          .filter((q) => q.produceLine === 'L1' && q.pageIndex === '1').length;
      expect(firstPages()).toBe(1);
      machines[0]!.deviceStatus = 'error';
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await eventually(() => expect(firstPages()).toBe(2));
      await eventually(() => expect(cardsIn(group('一号产线'))[0]?.textContent).toContain('故障'));
    } finally {
      machines[0]!.deviceStatus = 'running';
      vi.useRealTimers();
    }
  });

  it('offline, keeps showing the lines it had when their refresh fails', async () => {
    const { client } = openList();
    await eventually(() => expect(cardsIn(group('一号产线'))).toHaveLength(15));
    window.dispatchEvent(new Event('offline'));
    try {
      await act(() => client.refetchQueries({ type: 'active' }));
      // The page has drawn the failed refreshes (the cache tells it on the next tick).
      await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
      expect(client.getQueryState(queryKeys.devices.menu())?.status).toBe('error');
      // Its last answer still draws the lines and their cards.
      expect(cardsIn(group('一号产线'))).toHaveLength(15);
    } finally {
      window.dispatchEvent(new Event('online'));
    }
  });

  it('opens the real-time report of a tapped card', async () => {
    const { router, user } = openList();
    const [first] = await screen.findAllByRole('article');
    await user.click(first as HTMLElement);
    await eventually(() => expect(router.state.location.pathname).toBe(paths.currentDataReport));
    expect(router.state.location.search).toBe('?snCode=L1-01');
  });

  it('selects cards in subscribe mode and names at most 8 of them', async () => {
    const { router, user } = openList();
    await screen.findAllByRole('article');
    await user.click(screen.getByRole('button', { name: '订阅设置' }));
    for (const card of screen.getAllByRole('article').slice(0, 9)) await user.click(card);

    const selection = screen.getByRole('status', { name: '已选机台' }).textContent ?? '';
    expect(selection).toMatch(/^已选择 9 台/);
    const named = selection.replace(/^已选择 9 台/, '');
    expect(named).toContain('L1-08');
    expect(named).not.toContain('L1-09');
    expect(named.endsWith('…')).toBe(true);

    // The bar's 订阅设置 (the toggle above now reads 退出设置).
    await user.click(screen.getByRole('button', { name: '订阅设置' }));
    await eventually(() => expect(router.state.location.pathname).toBe(paths.followSetting));
    expect(
      new URLSearchParams(router.state.location.search).get('snCode')?.split(','),
    ).toHaveLength(9);
  });
});
