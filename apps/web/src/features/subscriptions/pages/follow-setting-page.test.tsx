import {
  subscriptionMessages,
  type AddFollowBody,
  type FollowSettings,
} from '@linewatch/contracts/subscriptions';
import { listMessages } from '@linewatch/contracts/list-messages';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { links } from '../../../shared/paths.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { answerDialog, dialogsNow, newDialog } from '../../../testing/dialogs.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const settings: FollowSettings = {
  snCode: 'SN-1',
  isFollow: false,
  userFollowSnId: null,
  realTimeReminder: true,
  threeParameters: false,
  alarm: true,
  daily: false,
  week: false,
  timeLength: 3_600_000 + 25 * 60_000,
};

const server = (current: FollowSettings = settings) => {
  const saved: AddFollowBody[] = [];
  const api = fakeApi()
    .on(subscriptionsApi.followSettings, () => current)
    .on(subscriptionsApi.addFollow, (body) => {
      saved.push(body as AddFollowBody);
      return { count: 2 };
    });
  return { api, saved };
};

const checkbox = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name });
const save = () => screen.getByRole('button', { name: '保存' });

describe('follow setting page', () => {
  it('starts from the first machine’s settings and shows the stop duration', async () => {
    renderPage(links.followSetting(['SN-1', 'SN-2']), { api: server().api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    expect(screen.getByText('已选 2 台：').textContent).toContain('已选 2 台：SN-1、SN-2');
  });

  it('statistics selects both report types when none is chosen and clears them when unchecked', async () => {
    const { api, saved } = server();
    const { user } = renderPage(links.followSetting(['SN-1', 'SN-2']), { api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    await user.click(checkbox('统计报表'));
    expect(checkbox('日报').checked).toBe(true);
    expect(checkbox('周报').checked).toBe(true);
    await user.click(checkbox('统计报表'));
    expect(checkbox('日报').checked).toBe(false);
    await user.click(checkbox('周报'));
    await user.click(save());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      snCode: 'SN-1,SN-2',
      alarm: true,
      realTimeReminder: true,
      week: true,
      daily: false,
      statistics: true,
      timeLength: 5_100_000,
    });
  });

  it('says 请先选择机台 with no machine', async () => {
    renderPage(links.followSetting([]), { api: server().api });
    await screen.findByText(subscriptionMessages.selectMachine, {}, { timeout: 5000 });
  });

  it('keeps 统计 checked with no report type and refuses to save: 若选择统计，则至少选择一种报表类型', async () => {
    const { api, saved } = server();
    const { user } = renderPage(links.followSetting(['SN-1']), { api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    await user.click(checkbox('日报'));
    expect(checkbox('统计报表').checked).toBe(true);
    await user.click(checkbox('日报'));
    expect(checkbox('统计报表').checked).toBe(true);
    await user.click(save());
    await screen.findByText(subscriptionMessages.needReportType, {}, { timeout: 5000 });
    expect(saved).toEqual([]);
    expect(api.calls(subscriptionsApi.addFollow)).toEqual([]);
  });

  it('offers hours 0–1 and minutes 0–55 by 5; the picked duration is hours×3600000 + minutes×60000', async () => {
    const { api, saved } = server({ ...settings, timeLength: 0 });
    const { user } = renderPage(links.followSetting(['SN-1']), { api });
    await user.click(await screen.findByText('0小时0分钟', {}, { timeout: 5000 }));
    // The picker loads on its first opening; each wheel says what it holds (as a screen reader
    // hears it).
    await screen.findByRole('button', { name: '当前选择的是：0小时' }, { timeout: 20_000 });
    expect(screen.getByRole('button', { name: '当前选择的是：0分钟' })).toBeTruthy();
    const labels = (unit: string) =>
      screen.getAllByText(new RegExp(`^\\d+${unit}$`)).map((item) => item.textContent);
    expect(labels('小时')).toEqual(['0小时', '1小时']);
    expect(labels('分钟')).toEqual(Array.from({ length: 12 }, (_, i) => `${i * 5}分钟`));
    // The popup takes no pointer while it slides in (jsdom never ends the animation): the wheels'
    // items are clicked as a finished tap clicks them. The wheels tell the picker their value on
    // the next task (antd-mobile debounces it by 0 ms), before a finger can reach 确定.
    fireEvent.click(screen.getByText('1小时'));
    fireEvent.click(screen.getByText('25分钟'));
    await act(() => new Promise((next) => setTimeout(next, 0)));
    fireEvent.click(screen.getAllByRole('button', { name: '确定' }).at(-1)!);
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    await user.click(save());
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ snCode: 'SN-1', timeLength: 3_600_000 + 25 * 60_000 });
  });

  it('says 关注失败 and 取消关注失败 with the server’s reason', async () => {
    const { api } = server({ ...settings, isFollow: true, userFollowSnId: 7 });
    api
      .on(subscriptionsApi.addFollow, () => failure('0403', '无权查看，请联系管理员', 403))
      .on(subscriptionsApi.delFollows, () => failure('0500', '数据库不可用'));
    const { user } = renderPage(links.followSetting(['SN-1']), { api });
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    await user.click(save());
    await screen.findByText(
      `${subscriptionMessages.followFailed}：无权查看，请联系管理员`,
      {},
      { timeout: 5000 },
    );
    const before = dialogsNow();
    await user.click(screen.getByRole('button', { name: '取消关注' }));
    answerDialog(await newDialog(before, '确定取消 SN-1 的订阅？'), '确定');
    await screen.findByText(
      `${subscriptionMessages.cancelFailed}：数据库不可用`,
      {},
      { timeout: 5000 },
    );
    expect(api.calls(subscriptionsApi.delFollows)).toEqual([{ snCodes: 'SN-1' }]);
  });

  it('says 无权查看，请联系管理员 for a machine the user may not see, with no retry and no form', async () => {
    const { api } = server();
    api.on(subscriptionsApi.followSettings, () => failure('0403', '无权查看，请联系管理员', 403));
    renderPage(links.followSetting(['LW-S2-001']), { api });
    await screen.findByText('无权查看，请联系管理员', {}, { timeout: 5000 });
    expect(screen.queryByText(listMessages.retry)).toBeNull();
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(api.calls(subscriptionsApi.followSettings)).toHaveLength(1);
  });

  it('shows the form only with the settings; a failed read offers a retry', async () => {
    const { api } = server();
    let fail = true;
    api.on(subscriptionsApi.followSettings, () =>
      fail ? failure('0500', '数据库不可用') : settings,
    );
    const { user } = renderPage(links.followSetting(['SN-1']), { api });
    const retry = await screen.findByText(listMessages.retry, {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    fail = false;
    await user.click(retry);
    await screen.findByText('1小时25分钟', {}, { timeout: 5000 });
    expect(screen.getByRole('switch', { name: '报警推送' }).getAttribute('aria-checked')).toBe(
      'true',
    );
  });
});
