import type { StopAlarm } from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { screen, within } from '@testing-library/react';
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
    const current = within(
      await screen.findByRole('list', { name: '当前报警' }, FIRST),
    ).getAllByRole('listitem');
    expect(current.map((c) => c.textContent)).toEqual([expect.stringContaining('E108')]);
    expect(current[0]!.textContent).toContain('当前报警');
    const dayAlarms = () =>
      within(screen.getByRole('list', { name: '停机报警' })).getAllByRole('listitem');
    const items = dayAlarms();
    // Only the alarm still active is flagged.
    expect(items.map((i) => i.textContent?.includes('当前报警'))).toEqual([true, false]);
    expect(items[1]!.textContent).toContain('结束：2026-11-20 08:02:30');
    expect(api.calls(historyApi.stopAlarms)[0]).toMatchObject({
      snCode: 'SN-1',
      date: today(),
      pageNumber: '1',
      // docs/product.md section 7: the stop alarm page asks for 11
      pageSize: '11',
    });
    expect(screen.getByRole('button', { name: '上一页' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('2 / 2');
    await vi.waitFor(() =>
      expect(dayAlarms().map((i) => i.textContent)).toEqual([expect.stringContaining('E103')]),
    );
  });

  it('shows the operation log with / for a missing comment', async () => {
    const { api, user } = renderPage(links.machine(paths.deviceLog, 'SN-1'), {
      api: logServer(),
    });
    await user.click(await screen.findByRole('tab', { name: '操作日志' }, FIRST));
    const line = within(await screen.findByRole('list', { name: '操作日志' })).getByRole(
      'listitem',
    );
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
    // 暂无数据 is the empty state's own words (no result, end and retry say otherwise).
    expect(await screen.findByText('暂无数据', {}, FIRST)).toBeTruthy();
  });
});
