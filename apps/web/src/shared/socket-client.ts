import { REALTIME_RESEND_MS, SOCKET_RETRY_MS } from '@linewatch/contracts/limits';

export type SocketStatus = 'connecting' | 'open' | 'closed';

/** The slice of the browser WebSocket the client uses (tests inject a fake). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send: (data: string) => void;
  close: (code?: number) => void;
}
export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

const OPEN = 1;

export interface SocketClientOptions {
  /** Evaluated on every (re)connect, so a new keyId is picked up. */
  url: () => string;
  /** Sec-WebSocket-Protocol values, evaluated on every (re)connect (they may carry the session). */
  protocols?: () => string[];
  /** Sent on open and then every resendMs (the real-time socket's keep-alive request). */
  hello?: () => unknown;
  onMessage: (data: unknown) => void;
  onStatus?: (status: SocketStatus) => void;
  /** Called with the close code; return false to stop reconnecting (e.g. 4405 not signed in). */
  shouldReconnect?: (closeCode: number) => boolean;
  retryMs?: number;
  resendMs?: number;
  createSocket?: SocketFactory;
}

export interface SocketConnection {
  close: () => void;
}

const browserSocket: SocketFactory = (url, protocols) => new WebSocket(url, protocols);

/** Same-origin WebSocket address for a path such as /ws/realtime/SN. */
export const socketUrl = (path: string): string => {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${path}`;
};

/**
 * The one socket client: reconnects after retryMs on close or error, resends hello on a timer.
 * When the network comes back (`online`) or the webview comes back from the background
 * (`visibilitychange` to visible, where timers were frozen) it resumes at once: a dropped socket
 * reconnects without waiting out the retry delay, an open one is sent hello for a fresh snapshot.
 */
export const openSocket = (options: SocketClientOptions): SocketConnection => {
  const {
    retryMs = SOCKET_RETRY_MS,
    resendMs = REALTIME_RESEND_MS,
    createSocket = browserSocket,
  } = options;
  let socket: SocketLike | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let resendTimer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  const sendHello = () => {
    if (!options.hello || !socket || socket.readyState !== OPEN) return;
    socket.send(JSON.stringify(options.hello()));
  };

  const detach = (target: SocketLike) => {
    target.onopen = null;
    target.onmessage = null;
    target.onerror = null;
    target.onclose = null;
  };

  const drop = (target: SocketLike, closeCode?: number) => {
    if (target !== socket || stopped) return;
    socket = null;
    clearInterval(resendTimer);
    detach(target);
    if (closeCode === undefined) target.close();
    options.onStatus?.('closed');
    if (closeCode !== undefined && options.shouldReconnect && !options.shouldReconnect(closeCode)) {
      stopped = true;
      return;
    }
    retryTimer = setTimeout(connect, retryMs);
  };

  function connect() {
    if (stopped) return;
    options.onStatus?.('connecting');
    let target: SocketLike;
    try {
      target = createSocket(options.url(), options.protocols?.() ?? []);
    } catch {
      options.onStatus?.('closed');
      retryTimer = setTimeout(connect, retryMs);
      return;
    }
    socket = target;
    target.onopen = () => {
      options.onStatus?.('open');
      sendHello();
      clearInterval(resendTimer);
      resendTimer = setInterval(sendHello, resendMs);
    };
    target.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      options.onMessage(data);
    };
    target.onerror = () => drop(target);
    target.onclose = (event) => drop(target, event.code);
  }

  const resume = () => {
    if (stopped) return;
    if (socket) {
      // Open: ask for the current state now. Still connecting: its open will ask.
      sendHello();
      return;
    }
    clearTimeout(retryTimer);
    connect();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') resume();
  };
  window.addEventListener('online', resume);
  document.addEventListener('visibilitychange', onVisibility);

  connect();

  return {
    close: () => {
      window.removeEventListener('online', resume);
      document.removeEventListener('visibilitychange', onVisibility);
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(resendTimer);
      if (socket) {
        detach(socket);
        socket.close(1000);
        socket = null;
      }
    },
  };
};
