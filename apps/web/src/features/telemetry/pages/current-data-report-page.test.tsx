import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { links, paths } from '../../../shared/paths.ts';
import { buildRealtimePayload } from '../../../testing/builders.ts';
import { FakeSocket } from '../../../testing/fake-socket.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const inFault = buildRealtimePayload({
  SN: 'SN-1',
  EquipmentStatus: 3,
  updatedAt: new Date(new Date().setHours(9, 5, 7, 0)).getTime(),
  alarms: [
    { code: 'E205', description: '气压不足' },
    { code: 'E999', description: null },
  ],
});

/** A product figure's value, found by the figure's name (the value is "—" or a number). */
const figure = (name: string) =>
  within(screen.getByRole('group', { name })).getByText(/^(—|\d)/).textContent;

/** The page is a lazy chunk behind the guard: its socket opens once it has rendered. */
const socket = () => vi.waitFor(() => FakeSocket.current());

beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => {
  FakeSocket.last = null;
});

describe('real-time report page', () => {
  it('lists the active alarms of a machine in fault and when it last reported', async () => {
    renderPage(links.currentDataReport('SN-1'));
    const opened = await socket();
    act(() => opened.openWith(inFault));
    const alarms = within(await screen.findByRole('alert')).getAllByRole('listitem');
    expect(alarms.map((a) => a.textContent)).toEqual(['E205气压不足', 'E999']);
    expect(screen.getByText('最后上报 09:05:07')).toBeTruthy();
  });

  it('says when an offline machine last reported, with the date when not today', async () => {
    renderPage(links.currentDataReport('SN-1'));
    const opened = await socket();
    const before = new Date();
    before.setDate(before.getDate() - 2);
    before.setHours(14, 3, 0, 0);
    const y = before.getFullYear();
    const md = `${String(before.getMonth() + 1).padStart(2, '0')}-${String(before.getDate()).padStart(2, '0')}`;
    act(() =>
      opened.openWith({ ...inFault, EquipmentStatus: 0, alarms: [], updatedAt: before.getTime() }),
    );
    expect(await screen.findByText(`最后上报 ${y}-${md} 14:03`)).toBeTruthy();
    // Never heard: nothing to say when.
    act(() => opened.push({ ...inFault, EquipmentStatus: 0, alarms: [], updatedAt: null }));
    await screen.findByText('暂无数据上报');
  });

  it('shows — for every figure of a machine that never reported (no gateway), as its card does', async () => {
    renderPage(links.currentDataReport('SN-1'));
    const opened = await socket();
    const zero = (key: RealtimePayload['productData'][number]['key']) => ({
      key,
      name: key,
      value: 0,
    });
    act(() =>
      opened.openWith(
        buildRealtimePayload({
          EquipmentStatus: 0,
          updatedAt: null,
          productData: [zero('ppm'), zero('produced'), zero('ok'), zero('ng'), zero('dt')],
          progress: [
            {
              existingName: '当前产量',
              existing: 0,
              amountName: '目标产量',
              amount: 800,
              percent: '0.00',
            },
            {
              existingName: 'OK数',
              existing: 0,
              amountName: '当前产量',
              amount: 0,
              percent: '0.00',
            },
          ],
        }),
      ),
    );
    await screen.findByText('暂无数据上报');
    const values = ['ppm', 'produced', 'ok', 'ng', 'dt'].map(figure);
    expect(values).toEqual(['—', '—', '—', '—', '—']);
    const [produced, ok] = within(screen.getByRole('list', { name: '生产进度' }))
      .getAllByRole('listitem')
      .map((i) => i.textContent);
    // The target stays a figure; the counts, OK数's amount too, read —.
    expect(produced).toContain('当前产量 —');
    expect(produced).toContain('目标产量 800');
    expect(ok).toContain('OK数 —');
    expect(ok).toContain('当前产量 —');
    // Once it reports, its zeros are figures.
    act(() =>
      opened.push(buildRealtimePayload({ updatedAt: Date.now(), productData: [zero('produced')] })),
    );
    await vi.waitFor(() => expect(figure('produced')).toBe('0'));
  });

  it('shows no alarm panel while the machine runs', async () => {
    renderPage(links.currentDataReport('SN-1'));
    const opened = await socket();
    act(() => opened.openWith({ ...inFault, EquipmentStatus: 2, alarms: [] }));
    await screen.findByText('最后上报 09:05:07');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('故障报警')).toBeNull();
  });

  it('says no machine is chosen without an snCode, and opens no socket', async () => {
    renderPage(paths.currentDataReport);
    expect(await screen.findByText('当前无选择设备')).toBeTruthy();
    expect(FakeSocket.last).toBeNull();
  });

  it('asks to choose again from the list for an SN no machine has', async () => {
    renderPage(links.currentDataReport('NO-SUCH'));
    const opened = await socket();
    act(() => opened.onclose?.(new CloseEvent('close', { code: 4404 })));
    expect(await screen.findByText('请从设备列表重新选择设备')).toBeTruthy();
  });
});
