import { alertMessages, type InboxMessage, type ReportReply } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { screen, waitFor } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { describe, expect, it, vi } from 'vitest';
import { webMessages } from '../../../shared/messages.ts';
import { links, paths } from '../../../shared/paths.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const reportOf = (snCode: string): ReportReply => ({
  snCode,
  nickSnCode: '',
  deviceName: '回流焊炉01',
  pageType: 'date',
  beginTime: '2026-11-22',
  endTime: '2026-11-22',
  targets: { ppmTarget: 70, yieldTarget: 97, useRateTarget: 80 },
  threeParam: [{ date: '08:00', activation: 50, yield: 98, ppm: 60 }],
  dt: [{ date: '08:00', value: 30 }],
  dtTop: [
    {
      code: 'E518',
      description: '温度过高',
      times: 1,
      duration: 30,
      percentage: 100,
      artificialDes: '',
    },
  ],
});

const message = (id: number, link: string | null, read = false): InboxMessage => ({
  id,
  kind: 'alarm',
  title: `LW-S1-005 回流焊炉01 报警 ${id}`,
  body: 'SN：LW-S1-005，设备：回流焊炉01，报警：E518 温度过高',
  link,
  createdAt: '2026-11-23T02:00:00.000Z',
  read,
  alarm: { snCode: 'LW-S1-005', warningContent: 'E518 温度过高' },
});

describe('report page', () => {
  it('says 当前无选择设备 without a machine, and asks nothing', async () => {
    const api = fakeApi().on(alertsApi.report, (q) => reportOf(String(q.snCode)));
    renderPage(paths.report, { api });
    await screen.findByText(alertMessages.noDevice, {}, { timeout: 5000 });
    expect(api.calls(alertsApi.report)).toEqual([]);
  });

  it('reads the first of several machines; with none chosen it says 请选择查阅的设备', async () => {
    const api = fakeApi().on(alertsApi.report, (q) => reportOf(String(q.snCode)));
    const { user } = renderPage(links.report('SN-A,SN-B', 'date', '2026-11-22'), { api });
    await screen.findByRole('heading', { name: /^SN-A 回流焊炉01/ }, { timeout: 5000 });
    expect(api.calls(alertsApi.report)).toEqual([
      { snCode: 'SN-A', alarmType: 'date', endTime: '2026-11-22', isReport: '' },
    ]);
    // The machines' selector, not the title, which names the machine too.
    const option = (sn: string) => screen.getByRole('option', { name: sn });
    await user.click(option('SN-A'));
    await screen.findByText(alertMessages.chooseDevice, {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: '下载Excel' })).toBeNull();
    expect(api.calls(alertsApi.report)).toHaveLength(1);
    await user.click(option('SN-B'));
    await screen.findByRole('heading', { name: /^SN-B/ }, { timeout: 5000 });
  });

  it('says 无权查看，请联系管理员 for a machine the user may not see, with no Excel button', async () => {
    const api = fakeApi().on(alertsApi.report, () =>
      failure('0403', '无权查看，请联系管理员', 403),
    );
    renderPage(links.report('LW-S2-001', 'date', '2026-11-22'), { api });
    await screen.findByText('无权查看，请联系管理员', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: '下载Excel' })).toBeNull();
    // A chart is a canvas with nothing a user reads: its test id is all there is to find it by.
    expect(screen.queryByTestId('report-chart')).toBeNull();
  });

  it('saves the workbook under the name the server gives, and frees its URL only once the save has begun', async () => {
    const name = 'SN-A-日报-2026-11-22.xlsx';
    const api = fakeApi()
      .on(alertsApi.report, (q) => reportOf(String(q.snCode)))
      .on(
        alertsApi.reportXlsx,
        () =>
          new Response('xlsx', {
            headers: {
              'Content-Disposition': `attachment; filename="SN-A-daily-2026-11-22.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`,
            },
          }) as never,
      );
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      // In the document while clicked: a detached link's name is not honoured everywhere.
      if (this.isConnected) saved.push(this.download);
    });
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:workbook');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { user } = renderPage(links.report('SN-A', 'date', '2026-11-22'), { api });
      await user.click(await screen.findByRole('button', { name: '下载Excel' }, { timeout: 5000 }));
      await waitFor(() => expect(saved).toEqual([name]));
      // Safari starts the save after the click returns: a URL freed at once saves nothing.
      expect(revoke).not.toHaveBeenCalled();
      vi.advanceTimersByTime(60_000);
      expect(revoke).toHaveBeenCalledWith('blob:workbook');
    } finally {
      vi.useRealTimers();
      for (const spy of [click, create, revoke]) spy.mockRestore();
    }
  });

  it('says the network failed when the workbook cannot be fetched, and stays on the report', async () => {
    // No handler for the workbook: the fake fetch fails as a dropped connection does.
    const api = fakeApi().on(alertsApi.report, (q) => reportOf(String(q.snCode)));
    const toasts: string[] = [];
    const show = vi.spyOn(Toast, 'show').mockImplementation((props) => {
      if (typeof props === 'object' && typeof props.content === 'string')
        toasts.push(props.content);
      return { close: () => {} };
    });
    try {
      const { user } = renderPage(links.report('SN-A', 'date', '2026-11-22'), { api });
      await user.click(await screen.findByRole('button', { name: '下载Excel' }, { timeout: 5000 }));
      await waitFor(() => expect(toasts).toEqual([webMessages.networkError]));
      expect(api.unhandled).toEqual([`GET ${alertsApi.reportXlsx.path}`]);
      expect(screen.getByRole('heading', { name: /^SN-A/ })).toBeTruthy();
    } finally {
      show.mockRestore();
    }
  });
});

describe('messages page', () => {
  it('counts the unread; opening a message reads it and follows its link', async () => {
    const inbox = [message(2, links.faultAlarm(5)), message(1, null, true)];
    const api = fakeApi()
      .on(alertsApi.inbox, () => ({
        data: inbox,
        totalNum: inbox.length,
        unread: inbox.filter((m) => !m.read).length,
      }))
      .on(alertsApi.markRead, (body) => {
        const ids = (body.ids ?? []) as number[];
        for (const m of inbox) if (ids.includes(m.id)) m.read = true;
        return { unread: inbox.filter((m) => !m.read).length };
      });
    const { user, router } = renderPage(paths.messages, { api });
    await screen.findByRole('heading', { name: '消息（1 未读）' }, { timeout: 5000 });
    // Dates in the app's one format (shared/format.ts formatDateTime), not the locale's 2026/11/23:
    // one such date per message.
    expect(screen.getAllByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)).toHaveLength(inbox.length);
    await user.click(screen.getByText('LW-S1-005 回流焊炉01 报警 2'));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        links.faultAlarm(5),
      ),
    );
    expect(api.calls(alertsApi.markRead)).toEqual([{ ids: [2] }]);
  });
});

describe('set page', () => {
  it('shows a channel the person cannot get as off and disabled, saying how to get it', async () => {
    const api = fakeApi().on(alertsApi.channels, () => ({
      wechatAvailable: false,
      dingtalkAvailable: true,
      webhookAvailable: false,
      wechat: true,
      dingtalk: true,
      webhookUrl: null,
      account: {
        psnCode: 'operator',
        name: '操作员',
        nickName: '李班长',
        mobile: null,
        wechatBound: false,
        dingtalkBound: true,
      },
    }));
    renderPage(paths.set, { api });
    await screen.findByText('通过微信登录后可用', {}, { timeout: 5000 });
    const wechat = screen.getByRole('switch', { name: '微信模板消息' });
    expect(wechat.getAttribute('aria-disabled')).toBe('true');
    expect(wechat.getAttribute('aria-checked')).toBe('false');
    const dingtalk = screen.getByRole('switch', { name: '钉钉工作通知' });
    expect(dingtalk.getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByText('通过钉钉登录后可用')).toBeNull();
  });
});
