import { subscriptionMessages, type FollowRow } from '@linewatch/contracts/subscriptions';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listMessages } from '@linewatch/contracts/list-messages';
import { webMessages } from '../../../shared/messages.ts';
import { paths } from '../../../shared/paths.ts';
import { answerDialog, dialogsNow, newDialog } from '../../../testing/dialogs.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const row = (i: number): FollowRow => ({
  snCode: `SN-${String(i).padStart(2, '0')}`,
  nickSnCode: '',
  deviceName: '贴片机',
  produceGroup: '贴片',
  yield: 98.5,
  yieldTarget: 95,
  useRate: null,
  useRateTarget: 85,
  ppm: 50,
  ppmTarget: 60,
  isFollow: i % 2 === 0,
  userFollowSnId: i % 2 === 0 ? i : null,
});
const rows = Array.from({ length: 25 }, (_, i) => row(i));
/** The selector's SN list: 45 machines, three chunks of 20. */
const sns = Array.from({ length: 45 }, (_, i) => `SEL-${String(i).padStart(2, '0')}`);

const server = () => {
  const cancelled: string[] = [];
  const api = fakeApi()
    .on(subscriptionsApi.processSections, () => [{ label: '贴片', value: '贴片' }])
    .on(subscriptionsApi.list, (q) => {
      const page = Number(q.pageNumber);
      return { data: rows.slice((page - 1) * 20, page * 20), totalNum: rows.length };
    })
    .on(subscriptionsApi.delFollows, (body) => {
      cancelled.push(String(body.snCodes));
      return { count: 1 };
    })
    .on(subscriptionsApi.snCodes, (q) => {
      const found = sns.filter((sn) => sn.includes(String(q.nameTag ?? '')));
      const page = Number(q.pageIndex);
      const size = Number(q.pageSize);
      return {
        data: found.slice((page - 1) * size, page * size).map((sn) => ({ label: sn, value: sn })),
        totalNum: found.length,
      };
    })
    .on(subscriptionsApi.userDict, () => [{ label: 'SEL-01', value: 'SEL-01' }]);
  return { api, cancelled };
};

/** The subscriptions' rows (each with its swipe actions). */
const subscriptionRows = () =>
  within(screen.getByRole('list', { name: '订阅列表' })).queryAllByRole('listitem');
const firstPage = () =>
  waitFor(() => expect(subscriptionRows()).toHaveLength(20), { timeout: 5000 });

// Dialogs and toasts load lazily; a busy machine needs more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.useRealTimers();
});

describe('subscription page', () => {
  it('lists 20 a page with figures against targets and the subscribed tag', async () => {
    const { api } = server();
    renderPage(paths.subscription, { api });
    await firstPage();
    const first = subscriptionRows()[0]!;
    expect(first.textContent).toContain('98.5% / 95%');
    expect(first.textContent).toContain('— / 85%');
    expect(first.textContent).toContain('50 / 60');
    expect(first.textContent).toContain('已订阅');
    expect(subscriptionRows()[1]!.textContent).not.toContain('已订阅');
  });

  it('keeps the rows shown when their refresh fails; a retry row only for a first load', async () => {
    const { api } = server();
    let offline = false;
    api.on(subscriptionsApi.list, (q) => {
      if (offline) return failure('network', webMessages.networkError);
      const page = Number(q.pageNumber);
      return { data: rows.slice((page - 1) * 20, page * 20), totalNum: rows.length };
    });
    const { client } = renderPage(paths.subscription, { api });
    await firstPage();
    offline = true;
    await client.refetchQueries({ queryKey: ['subscriptions', 'list'] });
    await vi.waitFor(() => expect(api.calls(subscriptionsApi.list)).toHaveLength(2));
    // The failure is drawn (its toast), and the rows are still there.
    await vi.waitFor(() => expect(document.body.textContent).toContain('网络异常，请检查网络连接'));
    expect(subscriptionRows()).toHaveLength(20);
    // The list's foot offers more, not the first load's retry.
    expect(screen.getByRole('button', { name: webMessages.loadMore })).toBeTruthy();
    expect(screen.queryByRole('button', { name: listMessages.retry })).toBeNull();
  });

  it('batch actions need a selection; batch cancel asks first: 取消操作 on cancel, then cancels all with 已取消订阅', async () => {
    const { api, cancelled } = server();
    const { user } = renderPage(paths.subscription, { api });
    await firstPage();
    // 多选 is a bare link-styled tap target (no role): found by its words.
    await user.click(screen.getByText('多选'));
    await user.click(screen.getByRole('button', { name: '批量取消' }));
    await screen.findByText(subscriptionMessages.selectMachine, {}, { timeout: 5000 });
    await user.click(screen.getByRole('checkbox', { name: /^全选/ }));
    let before = dialogsNow();
    await user.click(screen.getByRole('button', { name: '批量取消' }));
    answerDialog(await newDialog(before, '确定取消所选 20 台机台的订阅？'), '取消');
    await screen.findByText(webMessages.cancelled, {}, { timeout: 5000 });
    expect(cancelled).toEqual([]);
    before = dialogsNow();
    await user.click(screen.getByRole('button', { name: '批量取消' }));
    answerDialog(await newDialog(before, '确定取消所选 20 台机台的订阅？'), '确定');
    await waitFor(() => expect(cancelled).toHaveLength(1));
    expect(cancelled[0]!.split(',')).toHaveLength(20);
    await screen.findByText(subscriptionMessages.cancelled, {}, { timeout: 5000 });
  });

  it('offers 删除 only on subscribed rows', async () => {
    const { api } = server();
    renderPage(paths.subscription, { api });
    await firstPage();
    const [subscribed, notSubscribed] = subscriptionRows();
    expect(within(subscribed!).queryByRole('button', { name: '删除' })).not.toBeNull();
    expect(within(notSubscribed!).queryByRole('button', { name: '删除' })).toBeNull();
    expect(within(notSubscribed!).queryByRole('button', { name: '编辑' })).not.toBeNull();
  });

  it('swipe 删除 asks, then cancels that machine with 已取消订阅; a failure says 取消关注失败 with the reason', async () => {
    const { api, cancelled } = server();
    const { user } = renderPage(paths.subscription, { api });
    await firstPage();
    const swiped = subscriptionRows()[2]!;
    let before = dialogsNow();
    await user.click(within(swiped).getByRole('button', { name: '删除' }));
    answerDialog(await newDialog(before, '确定取消 SN-02 的订阅？'), '取消');
    await screen.findByText(webMessages.cancelled, {}, { timeout: 5000 });
    expect(cancelled).toEqual([]);
    before = dialogsNow();
    await user.click(within(swiped).getByRole('button', { name: '删除' }));
    answerDialog(await newDialog(before, '确定取消 SN-02 的订阅？'), '确定');
    await waitFor(() => expect(cancelled).toEqual(['SN-02']));
    await screen.findByText(subscriptionMessages.cancelled, {}, { timeout: 5000 });
    api.on(subscriptionsApi.delFollows, () => failure('0500', '数据库不可用'));
    before = dialogsNow();
    await user.click(within(swiped).getByRole('button', { name: '删除' }));
    answerDialog(await newDialog(before, '确定取消 SN-02 的订阅？'), '确定');
    await screen.findByText(
      `${subscriptionMessages.cancelFailed}：数据库不可用`,
      {},
      { timeout: 5000 },
    );
  });

  it('a delete of a subscription already gone says 删除有误，请重新进入页面操作 and reloads the list', async () => {
    const { api } = server();
    api.on(subscriptionsApi.delFollows, () =>
      failure('0404', subscriptionMessages.deleteGone, 404),
    );
    const { user } = renderPage(paths.subscription, { api });
    await firstPage();
    const listed = api.calls(subscriptionsApi.list).length;
    const swiped = subscriptionRows()[2]!;
    const before = dialogsNow();
    await user.click(within(swiped).getByRole('button', { name: '删除' }));
    answerDialog(await newDialog(before, '确定取消 SN-02 的订阅？'), '确定');
    await screen.findByText(
      `${subscriptionMessages.cancelFailed}：${subscriptionMessages.deleteGone}`,
      {},
      { timeout: 5000 },
    );
    await waitFor(() => expect(api.calls(subscriptionsApi.list).length).toBeGreaterThan(listed));
  });

  it('the SN selector opens after 500 ms, loads 20 a chunk each 500 ms apart, searches after 1000 ms and tags the followed', async () => {
    const { api } = server();
    renderPage(paths.subscription, { api });
    await firstPage();
    // From here the clock is the test's: the spec's delays are counted exactly.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    const chunks = () => api.calls(subscriptionsApi.snCodes);
    fireEvent.click(screen.getByRole('button', { name: '搜索SN码' }));
    await advance(499);
    expect(chunks()).toHaveLength(0);
    await advance(1);
    expect(chunks()).toEqual([{ nameTag: '', pageIndex: '1', pageSize: '20' }]);
    // The selector's popup loads on its first opening.
    const selector = within(
      await vi.waitFor(() => screen.getByRole('dialog', { name: '搜索SN码' }), { timeout: 20_000 }),
    );
    const options = () =>
      within(selector.getByRole('listbox', { name: 'SN码' })).getAllByRole('option');
    // Rendering what arrived moves the clock on only after each expected call was counted.
    await vi.waitFor(() => expect(options()).toHaveLength(20));
    // The user dictionary tags the machines this user follows.
    expect(selector.getByText('SEL-01').textContent).toContain('已订阅');
    expect(selector.getByText('SEL-02').textContent).not.toContain('已订阅');

    fireEvent.click(selector.getByRole('button', { name: webMessages.loadMore }));
    await advance(499);
    expect(chunks()).toHaveLength(1);
    await advance(1);
    expect(chunks()[1]).toMatchObject({ pageIndex: '2', pageSize: '20' });
    await vi.waitFor(() => expect(options()).toHaveLength(40));

    fireEvent.change(selector.getByRole('searchbox'), { target: { value: 'SEL-4' } });
    await advance(999);
    expect(chunks().filter((q) => q.nameTag === 'SEL-4')).toHaveLength(0);
    await advance(1);
    expect(chunks().filter((q) => q.nameTag === 'SEL-4')).toEqual([
      { nameTag: 'SEL-4', pageIndex: '1', pageSize: '20' },
    ]);
    expect(api.calls(subscriptionsApi.userDict).at(-1)).toEqual({ nameTag: 'SEL-4' });
    await vi.waitFor(() =>
      expect(options().map((o) => o.textContent)).toEqual(
        sns.filter((sn) => sn.startsWith('SEL-4')),
      ),
    );
    fireEvent.click(selector.getByText('SEL-42'));
    expect(screen.getByRole('button', { name: 'SEL-42' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(api.calls(subscriptionsApi.list).at(-1)).toMatchObject({ nameTag: 'SEL-42' }),
    );
  });
});
