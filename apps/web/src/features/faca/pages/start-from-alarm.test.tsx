import type { InboxMessage } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { facaApi } from '@linewatch/contracts/faca-api';
import { historyApi } from '@linewatch/contracts/history-api';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { links, paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { alarmText } from '../../../testing/builders.ts';
import { renderPage } from '../../../testing/render-page.tsx';

/** The first render of a lazy page loads its chunk: on a busy machine that takes a while. */
const LAZY = { timeout: 15_000 };
const E101 = alarmText('E101');

const options = (names: string[]) => ({
  content: names.map((name, i) => ({ id: i + 1, name })),
  totalElements: names.length,
});

/** The add-question form's options (the form opens after the tap). */
const withFacaOptions = () =>
  fakeApi()
    .on(facaApi.getWorkmanshipPage, () => options(['贴片']))
    .on(facaApi.getInfluenceParametersPage, () => options(['温度']));

/** The question form's fields by placeholder; the duration by its unit. */
const form = async () => {
  const sn = await screen.findByPlaceholderText('请输入设备SN码', {}, LAZY);
  const unit = (label: string) =>
    (screen.getAllByLabelText(label).find((n) => n.tagName === 'INPUT') as HTMLInputElement).value;
  return {
    sn: (sn as HTMLInputElement).value,
    warning: screen.getByPlaceholderText<HTMLInputElement>('请输入报警内容').value,
    count: screen.getByPlaceholderText<HTMLInputElement>('请输入报警次数').value,
    duration: [unit('时'), unit('分'), unit('秒')],
    dataFrom: screen.getByRole('group', { name: '数据来源' }).textContent,
  };
};

describe('a FACA question started from an alarm', () => {
  it('from a stop alarm of the device log: SN, content, count 1 and how long it lasted', async () => {
    const ended = {
      contentStr: E101,
      beginTime: '2026-11-20 08:00:00',
      endTime: '2026-11-20 09:02:05',
      state: 0 as const,
    };
    const api = withFacaOptions().on(historyApi.stopAlarms, () => ({
      currentWarning: [],
      data: [ended],
      page: { pageNumber: 1, pageSize: 11, total: 1, totalPage: 1 },
    }));
    const { router, user } = renderPage(links.machine(paths.deviceLog, 'LW-S1-002'), { api });
    // The log lists this one stop alarm: its button is the page's.
    await user.click(await screen.findByRole('button', { name: '发起FACA' }, LAZY));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.facaAddQuestion));
    expect(await form()).toEqual({
      sn: 'LW-S1-002',
      warning: E101,
      count: '1',
      duration: ['1', '2', '5'],
      dataFrom: '报警记录',
    });
  }, 30_000);

  it('from an alarm message of the inbox, and only from one', async () => {
    const message = (over: Partial<InboxMessage>): InboxMessage => ({
      id: 1,
      kind: 'alarm',
      title: '回流焊炉01 报警',
      body: `SN：LW-S1-002，设备：回流焊炉01，报警：${E101}`,
      link: '/faultAlarm?casesId=3',
      createdAt: '2026-11-20T00:00:00.000Z',
      read: true,
      alarm: { snCode: 'LW-S1-002', warningContent: E101 },
      ...over,
    });
    const api = withFacaOptions().on(alertsApi.inbox, () => ({
      data: [
        message({}),
        message({ id: 2, kind: 'daily', title: '日报', body: '日报已生成', alarm: null }),
      ],
      totalNum: 2,
      unread: 0,
    }));
    const { router, user } = renderPage(paths.messages, { api });
    await screen.findByText('日报已生成', {}, LAZY);
    // Only the alarm message offers it (the daily report has no alarm to start from).
    const starts = screen.getAllByRole('button', { name: '发起FACA' });
    expect(starts).toHaveLength(1);
    await user.click(starts[0]!);
    // The tap starts a question; it does not open the message's own link as well.
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.facaAddQuestion));
    expect(await form()).toEqual({
      sn: 'LW-S1-002',
      warning: E101,
      count: '1',
      duration: ['0', '0', '0'],
      dataFrom: '报警记录',
    });
  }, 30_000);
});
