import WebSocket from 'ws';

/** A WebSocket client of the server's sockets, as the phone opens them. */

export interface SocketClient {
  messages: unknown[];
  /** Resolves with the first message (already received or still to come) matching `predicate`. */
  waitForMessage<T = unknown>(predicate: (message: T) => boolean, timeout?: number): Promise<T>;
  /** The close code and reason once the socket closes. */
  closed: Promise<{ code: number; reason: string }>;
  /** The HTTP status when the server refused the handshake. */
  refused: Promise<number | null>;
  opened: Promise<boolean>;
  /** The subprotocol the server chose ('' for none). */
  protocol(): string;
  send(message: unknown): void;
  close(): void;
}

export const openSocket = (
  wsUrl: string,
  path: string,
  {
    origin,
    headers = {},
    protocols = [],
  }: { origin?: string; headers?: Record<string, string>; protocols?: string[] } = {},
): SocketClient => {
  const socket = new WebSocket(wsUrl + path, protocols, {
    headers,
    ...(origin ? { origin } : {}),
  });
  const messages: unknown[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')));
    for (const wake of waiters) wake();
  });
  let refusedStatus: number | null = null;
  const refused = new Promise<number | null>((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      refusedStatus = response.statusCode ?? 0;
      resolve(refusedStatus);
      socket.terminate();
    });
    socket.on('open', () => resolve(null));
  });
  socket.on('error', () => {
    // a refused handshake surfaces through `refused`, a dropped one through `closed`
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  return {
    messages,
    waitForMessage: <T>(predicate: (message: T) => boolean, timeout = 20_000) =>
      new Promise<T>((resolve, reject) => {
        let index = 0;
        const check = () => {
          for (; index < messages.length; index++) {
            if (predicate(messages[index] as T)) {
              cleanup();
              resolve(messages[index] as T);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching socket message within ${timeout} ms`));
        }, timeout);
        const onClose = () => {
          check();
          cleanup();
          reject(new Error('socket closed before a matching message'));
        };
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
          socket.off('close', onClose);
        };
        waiters.add(check);
        socket.on('close', onClose);
        check();
      }),
    closed,
    refused,
    opened: refused.then((status) => status === null),
    protocol: () => socket.protocol,
    send: (message) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
};
