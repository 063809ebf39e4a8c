import type { RealtimePayload } from '@linewatch/contracts/socket';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CurrentDataReportPage from './current-data-report-page.tsx';

/** The browser WebSocket, replaced: the page talks to the last one created. */
class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send() {}
  close() {}
}

const payload = (overrides: Partial<RealtimePayload> = {}): RealtimePayload => ({
  MsgType: 'machineList',
  SN: 'SN-1',
  deviceName: '贴片机',
  EquipmentStatus: 3,
  updatedAt: new Date(2026, 10, 22, 9, 5, 7).getTime(),
  alarms: [
    { code: 'E205', description: '气压不足' },
    { code: 'E999', description: null },
  ],
  productData: [],
  progress: [],
  dateData: [],
  ...overrides,
});

const renderPage = (search: string) => {
  const router = createMemoryRouter(
    [{ path: '/currentDataReport', element: <CurrentDataReportPage /> }],
    { initialEntries: [`/currentDataReport${search}`] },
  );
  render(<RouterProvider router={router} />);
};

const socket = () => {
  if (!FakeSocket.last) throw new Error('no socket');
  return FakeSocket.last;
};

beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => {
  vi.unstubAllGlobals();
  FakeSocket.last = null;
});

describe('real-time report page', () => {
  it('lists the active alarms of a machine in fault and when it last reported', async () => {
    renderPage('?snCode=SN-1');
    act(() => {
      socket().readyState = 1;
      socket().onopen?.(new Event('open'));
      socket().onmessage?.(new MessageEvent('message', { data: JSON.stringify(payload()) }));
    });
    const alarms = await screen.findAllByTestId('realtime-alarm');
    expect(alarms.map((a) => a.textContent)).toEqual(['E205气压不足', 'E999']);
    expect(screen.getByTestId('realtime-last-reading').textContent).toBe('最后上报 09:05:07');
  });

  it('shows no alarm panel while the machine runs', async () => {
    renderPage('?snCode=SN-1');
    act(() => {
      socket().readyState = 1;
      socket().onopen?.(new Event('open'));
      socket().onmessage?.(
        new MessageEvent('message', {
          data: JSON.stringify(payload({ EquipmentStatus: 2, alarms: [] })),
        }),
      );
    });
    await screen.findByTestId('realtime-last-reading');
    expect(screen.queryByTestId('realtime-alarms')).toBeNull();
  });

  it('asks to choose again from the list for an SN no machine has', async () => {
    renderPage('?snCode=NO-SUCH');
    act(() => socket().onclose?.(new CloseEvent('close', { code: 4404 })));
    expect((await screen.findByTestId('realtime-unknown')).textContent).toContain(
      '请从设备列表重新选择设备',
    );
  });
});
