import { sockets } from '@linewatch/contracts/telemetry-api';
import { REALTIME_RESEND_MS, SOCKET_RETRY_MS } from '@linewatch/contracts/limits';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSocket, type SocketClientOptions, type SocketLike } from './socket-client.ts';

class FakeSocket implements SocketLike {
  static created: FakeSocket[] = [];
  readyState = 0;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  onclose: SocketLike['onclose'] = null;
  sent: unknown[] = [];
  closedWith: number | undefined;

  constructor(readonly url: string) {
    FakeSocket.created.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }

  serverOpens() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  serverSends(data: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(data) }));
  }

  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close', { code }));
  }

  fails() {
    this.onerror?.(new Event('error'));
  }
}

const hello = { SN: 'SN-1', MsgType: 'machineFunction', machineFunctionName: 'machineList' };
const latest = () => FakeSocket.created.at(-1) as FakeSocket;

const open = (overrides: Partial<SocketClientOptions> = {}) =>
  openSocket({
    url: () => `ws://app.test${sockets.realtime.path('SN-1')}?n=${FakeSocket.created.length}`,
    hello: () => hello,
    onMessage: vi.fn(),
    createSocket: (url) => new FakeSocket(url),
    ...overrides,
  });

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.created = [];
});

afterEach(() => vi.useRealTimers());

describe('socket client', () => {
  it('sends the request on open and again every 30 s', () => {
    const connection = open();
    latest().serverOpens();
    expect(latest().sent).toEqual([hello]);
    vi.advanceTimersByTime(REALTIME_RESEND_MS);
    expect(latest().sent).toEqual([hello, hello]);
    vi.advanceTimersByTime(REALTIME_RESEND_MS);
    expect(latest().sent).toHaveLength(3);
    connection.close();
  });

  it('hands parsed messages over and skips text that is not JSON', () => {
    const onMessage = vi.fn();
    const connection = open({ onMessage });
    latest().serverOpens();
    latest().serverSends({ MsgType: 'machineList' });
    latest().onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage).toHaveBeenCalledWith({ MsgType: 'machineList' });
    connection.close();
  });

  it('reconnects 5 s after the server closes the socket', () => {
    const statuses: string[] = [];
    const connection = open({ onStatus: (status) => statuses.push(status) });
    latest().serverOpens();
    latest().serverCloses(1006);
    expect(FakeSocket.created).toHaveLength(1);
    vi.advanceTimersByTime(SOCKET_RETRY_MS - 1);
    expect(FakeSocket.created).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.created).toHaveLength(2);
    latest().serverOpens();
    expect(latest().sent).toEqual([hello]);
    expect(statuses).toEqual(['connecting', 'open', 'closed', 'connecting', 'open']);
    connection.close();
  });

  it('reconnects once after an error followed by a close', () => {
    const connection = open();
    const first = latest();
    first.fails();
    first.serverCloses(1006);
    vi.advanceTimersByTime(SOCKET_RETRY_MS);
    expect(FakeSocket.created).toHaveLength(2);
    vi.advanceTimersByTime(SOCKET_RETRY_MS * 3);
    expect(FakeSocket.created).toHaveLength(2);
    connection.close();
  });

  it('stops resending while disconnected', () => {
    const connection = open();
    const first = latest();
    first.serverOpens();
    first.serverCloses(1006);
    vi.advanceTimersByTime(REALTIME_RESEND_MS);
    expect(first.sent).toHaveLength(1);
    connection.close();
  });

  it('does not reconnect when told the close is final', () => {
    const shouldReconnect = vi.fn((code: number) => code !== 4405);
    const connection = open({ shouldReconnect });
    latest().serverOpens();
    latest().serverCloses(4405);
    vi.advanceTimersByTime(SOCKET_RETRY_MS * 2);
    expect(shouldReconnect).toHaveBeenCalledWith(4405);
    expect(FakeSocket.created).toHaveLength(1);
    connection.close();
  });

  it('closes cleanly and cancels a pending reconnect and resend', () => {
    const connection = open();
    latest().serverOpens();
    connection.close();
    expect(latest().closedWith).toBe(1000);
    vi.advanceTimersByTime(REALTIME_RESEND_MS);
    expect(latest().sent).toHaveLength(1);

    const again = open();
    latest().serverCloses(1006);
    again.close();
    vi.advanceTimersByTime(SOCKET_RETRY_MS * 2);
    expect(FakeSocket.created).toHaveLength(2);
  });

  it('back online, reconnects at once instead of after the retry delay, and asks afresh', () => {
    const connection = open();
    latest().serverOpens();
    latest().serverCloses(1006);
    expect(FakeSocket.created).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.created).toHaveLength(2);
    latest().serverOpens();
    expect(latest().sent).toEqual([hello]);
    // The pending retry was replaced, not added to.
    vi.advanceTimersByTime(SOCKET_RETRY_MS);
    expect(FakeSocket.created).toHaveLength(2);
    connection.close();
  });

  it('back from the background, asks an open socket for a fresh snapshot at once', () => {
    const connection = open();
    latest().serverOpens();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(latest().sent).toEqual([hello]);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(latest().sent).toEqual([hello, hello]);
    expect(FakeSocket.created).toHaveLength(1);
    connection.close();
    // A closed connection no longer listens.
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.created).toHaveLength(1);
    visibility.mockRestore();
  });

  it('does not reconnect on resume after the server said the close was final', () => {
    open({ shouldReconnect: () => false });
    latest().serverOpens();
    latest().serverCloses(4403);
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.created).toHaveLength(1);
  });
});
