import type { StopAlarm } from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { links, paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import { today } from '../dates.ts';

/** The page is a lazy chunk: its first render waits for it (slow on a busy machine). */
const FIRST = { timeout: 10_000 };

const alarm = (n: number, state: 0 | 1 = 0): StopAlarm => ({
  contentStr: `E10${n} 送料超时`,
  beginTime: `2026-11-20 08:0${n}:00`,
  endTime: state === 1 ? null : `2026-11-20 08:0${n}:30`,
  state,
});

const logServer = () =>
  fakeApi()
    .on(historyApi.stopAlarms, (q) => ({
      // E108 began on an earlier day and is still active; E109 began today (also in data).
      currentWarning: [alarm(8, 1), alarm(9, 1)],
      data: q.pageNumber === '2' ? [alarm(3)] : [alarm(9, 1), alarm(2)],
      page: { pageNumber: Number(q.pageNumber), pageSize: 11, total: 13, totalPage: 2 },
    }))
    .on(historyApi.operationLog, () => ({
      data: [
        {
          logComment: '',
          information: '温度 180',
          recordTime: '2026-11-20 08:50:00',
          userName: '李四',
        },
      ],
      total: 1,
      totalPage: 1,
    }));

describe('device log page', { timeout: 30_000 }, () => {
  it('lists the day’s stop alarms, current warnings flagged, and pages with next', async () => {
    const { api, user } = renderPage(links.machine(paths.deviceLog, 'SN-1'), {
      api: logServer(),
    });
    const current = await screen.findAllByTestId('current-warning', {}, FIRST);
    expect(current.map((c) => c.textContent)).toEqual([expect.stringContaining('E108')]);
    expect(current[0]!.textContent).toContain('当前报警');
    const items = screen.getAllByTestId('stop-alarm');
    expect(items.map((i) => i.dataset.state)).toEqual(['1', '0']);
    expect(items[0]!.textContent).toContain('当前报警');
    expect(items[1]!.textContent).toContain('结束：2026-11-20 08:02:30');
    expect(api.calls(historyApi.stopAlarms)[0]).toMatchObject({
      snCode: 'SN-1',
      date: today(),
      pageNumber: '1',
      // docs/product.md section 7: the stop alarm page asks for 11
      pageSize: '11',
    });
    expect(screen.getByTestId('alarm-pager-prev')).toHaveProperty('disabled', true);
    await user.click(screen.getByTestId('alarm-pager-next'));
    await vi.waitFor(() =>
      expect(screen.getByTestId('alarm-pager-position').textContent).toBe('2 / 2'),
    );
    expect(screen.getAllByTestId('stop-alarm').map((i) => i.textContent)).toEqual([
      expect.stringContaining('E103'),
    ]);
  });

  it('shows the operation log with / for a missing comment', async () => {
    const { api, user } = renderPage(links.machine(paths.deviceLog, 'SN-1'), {
      api: logServer(),
    });
    await user.click(await screen.findByTestId('log-tab-operations', {}, FIRST));
    const line = await screen.findByTestId('operation-log');
    expect(api.calls(historyApi.operationLog)[0]).toMatchObject({
      snCode: 'SN-1',
      startTime: today(),
      endTime: today(),
      pageIndex: '1',
      pageSize: '11',
    });
    expect(line.textContent).toContain('/');
    expect(line.textContent).toContain('设定值：温度 180');
    expect(line.textContent).toContain('李四');
  });

  it('says 暂无数据 when a day has no alarms', async () => {
    renderPage(links.machine(paths.deviceLog, 'SN-1'), {
      api: fakeApi().on(historyApi.stopAlarms, () => ({
        currentWarning: [],
        data: [],
        page: { pageNumber: 1, pageSize: 11, total: 0, totalPage: 0 },
      })),
    });
    await vi.waitFor(
      () => expect(screen.getByTestId('list-state').dataset.state).toBe('empty'),
      FIRST,
    );
    expect(screen.getByTestId('list-state').textContent).toBe('暂无数据');
  });
});
