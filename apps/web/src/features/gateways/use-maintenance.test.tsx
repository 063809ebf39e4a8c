import { SOCKET_RETRY_MS } from '@linewatch/contracts/limits';
import { act, renderHook } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../shared/session-store.ts';
import type { SocketFactory, SocketLike } from '../../shared/socket-client.ts';
import { useMaintenance } from './use-maintenance.ts';

type TestSocket = SocketLike & { url: string; sent: string[] };
const sockets: TestSocket[] = [];
const createSocket: SocketFactory = (url) => {
  const socket: TestSocket = {
    url,
    sent: [],
    readyState: 0,
    onopen: null,
    onmessage: null,
    onerror: null,
    onclose: null,
    send(data: string) {
      this.sent.push(data);
    },
    close() {},
  };
  sockets.push(socket);
  return socket;
};
const current = () => sockets.at(-1)!;
const open = () =>
  act(() => {
    Object.assign(current(), { readyState: 1 });
    current().onopen?.(new Event('open'));
  });

beforeEach(() => {
  vi.useFakeTimers();
  sockets.length = 0;
  useSession.getState().signIn('key-1');
  vi.spyOn(Toast, 'show').mockImplementation(() => ({ close: () => {} }));
});
afterEach(() => {
  vi.useRealTimers();
  vi.mocked(Toast.show).mockRestore();
  useSession.getState().clear();
});

describe('the maintenance socket', () => {
  it('shows 连接异常 on a socket error and sends the command again 5 s later', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useMaintenance(done, createSocket));
    // The socket opens once the maintenance contracts have loaded (they are not on the page).
    await act(() =>
      result.current.send('GW0000000001', {
        MsgType: 'unbind',
        snCode: 'SN-1',
        iotId: 'GW0000000001',
      }),
    );
    expect(result.current.pending).toBe(true);
    open();
    act(() => current().onerror?.(new Event('error')));
    await vi.waitFor(() =>
      expect(Toast.show).toHaveBeenCalledWith(expect.objectContaining({ content: '连接异常' })),
    );
    expect(sockets).toHaveLength(1);

    act(() => void vi.advanceTimersByTime(SOCKET_RETRY_MS));
    expect(sockets).toHaveLength(2);
    open();
    expect(current().sent.map((s) => JSON.parse(s) as unknown)).toEqual([
      { MsgType: 'unbind', snCode: 'SN-1', iotId: 'GW0000000001' },
    ]);
    // Still loading until the result; the command is never resent on a timer.
    act(() => void vi.advanceTimersByTime(60_000));
    expect(current().sent).toHaveLength(1);
    expect(result.current.pending).toBe(true);
    act(() =>
      current().onmessage?.(
        new MessageEvent('message', {
          data: JSON.stringify({ MsgType: 'unbindResult', Code: 200, Content: '解绑成功' }),
        }),
      ),
    );
    expect(result.current.pending).toBe(false);
    expect(done).toHaveBeenCalledOnce();
  });
});
