import { SOCKET_RETRY_MS } from '@linewatch/contracts/limits';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setNavigator } from '../../shared/navigation.ts';
import { useSession } from '../../shared/session-store.ts';
import type { SocketFactory, SocketLike } from '../../shared/socket-client.ts';
import { useRealtime } from './use-realtime.ts';
import { links } from '../../shared/paths.ts';
import { buildRealtimePayload } from '../../testing/builders.ts';

const sockets: (SocketLike & { url: string; protocols: string[]; sent: string[] })[] = [];
const createSocket: SocketFactory = (url, protocols) => {
  const socket = {
    url,
    protocols,
    sent: [] as string[],
    readyState: 0,
    onopen: null,
    onmessage: null,
    onerror: null,
    onclose: null,
    send(data: string) {
      this.sent.push(data);
    },
    close() {},
  } satisfies SocketLike & { url: string; protocols: string[]; sent: string[] };
  sockets.push(socket);
  return socket;
};
const current = () => sockets.at(-1) as (typeof sockets)[number];
const open = () =>
  act(() => {
    Object.assign(current(), { readyState: 1 });
    current().onopen?.(new Event('open'));
  });
/** Pushes a message and waits for its check (the payload schema loads on demand). */
const push = async (data: unknown) => {
  act(() => current().onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) })));
  await act(() => vi.dynamicImportSettled());
  // The query cache tells its observers on the next tick.
  await act(() => vi.advanceTimersByTimeAsync(0));
};
const serverClose = (code: number) =>
  act(() => current().onclose?.(new CloseEvent('close', { code })));

const payload = (overrides: Partial<RealtimePayload> = {}): RealtimePayload =>
  buildRealtimePayload({
    updatedAt: 1,
    productData: [{ key: 'yield', name: '良率', value: 99.5 }],
    ...overrides,
  });

const navigate = vi.fn();
vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));

let client = new QueryClient();
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);

beforeEach(() => {
  client = new QueryClient();
  vi.useFakeTimers();
  sockets.length = 0;
  setNavigator(navigate);
  useSession.getState().signIn('key-1');
});
afterEach(() => {
  vi.useRealTimers();
  navigate.mockReset();
});

describe('real-time data', () => {
  it('asks for the machine, never with keyId in the address, and shows what the server pushes', async () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    expect(current().url).toMatch(/\/ws\/realtime\/SN-1$/);
    expect(current().url).not.toContain('key-1');
    expect(current().protocols).toEqual(['linewatch', 'lw-key.key-1']);
    open();
    expect(JSON.parse(current().sent[0] ?? '')).toEqual({
      SN: 'SN-1',
      MsgType: 'machineFunction',
      machineFunctionName: 'machineList',
    });
    await push(payload());
    expect(result.current.payload?.EquipmentStatus).toBe(2);
  });

  it('ignores messages that break the contract or belong to another machine', async () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    await push({ MsgType: 'machineList', SN: 'SN-1' });
    await push(payload({ SN: 'SN-2' }));
    expect(result.current.payload).toBeNull();
    await push(payload({ deviceName: 'M-1' }));
    expect(result.current.payload?.deviceName).toBe('M-1');
  });

  it('checks a message that arrives before the check has loaded, and the next in order', async () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    act(() => {
      current().onmessage?.(
        new MessageEvent('message', { data: JSON.stringify(payload({ deviceName: 'first' })) }),
      );
      current().onmessage?.(new MessageEvent('message', { data: '{"SN":"SN-1"}' }));
      current().onmessage?.(
        new MessageEvent('message', { data: JSON.stringify(payload({ deviceName: 'last' })) }),
      );
    });
    await vi.waitFor(() => expect(result.current.payload?.deviceName).toBe('last'), {
      timeout: 20_000,
    });
  });

  it('flags the dropped connection and clears the flag once reconnected', () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    serverClose(1006);
    expect(result.current.disconnected).toBe(true);
    act(() => {
      vi.advanceTimersByTime(SOCKET_RETRY_MS);
    });
    expect(sockets).toHaveLength(2);
    open();
    expect(result.current.disconnected).toBe(false);
  });

  it('signs out on 4405 without retrying', () => {
    window.history.replaceState(null, '', links.currentDataReport('SN-1'));
    renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    serverClose(4405);
    act(() => {
      vi.advanceTimersByTime(SOCKET_RETRY_MS * 2);
    });
    expect(sockets).toHaveLength(1);
    expect(useSession.getState().keyId).toBeNull();
    expect(navigate).toHaveBeenCalledWith(links.loginAgain(links.currentDataReport('SN-1')), {
      replace: true,
    });
  });

  it('stops on 4403 and reports the machine as not visible', () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    serverClose(4403);
    act(() => {
      vi.advanceTimersByTime(SOCKET_RETRY_MS * 2);
    });
    expect(sockets).toHaveLength(1);
    expect(result.current.denied).toBe(true);
  });

  it('stops on 4404 and reports the machine as unknown', () => {
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    serverClose(4404);
    act(() => {
      vi.advanceTimersByTime(SOCKET_RETRY_MS * 2);
    });
    expect(sockets).toHaveLength(1);
    expect(result.current.unknown).toBe(true);
    expect(result.current.denied).toBe(false);
  });

  it('opens nothing without a machine', () => {
    renderHook(() => useRealtime(null, createSocket), { wrapper });
    expect(sockets).toHaveLength(0);
  });

  it('keeps the last payload for the page to show offline, and shows it when reopened', async () => {
    const first = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    open();
    await push(payload({ deviceName: 'M-1' }));
    first.unmount();
    // Reopened with no network: the socket does not open, the last payload is there.
    const { result } = renderHook(() => useRealtime('SN-1', createSocket), { wrapper });
    serverClose(1006);
    expect(result.current.payload?.deviceName).toBe('M-1');
    expect(result.current.disconnected).toBe(true);
  });
});
