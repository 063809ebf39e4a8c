import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  raw: string;
  json: unknown;
}

export interface FakeServer {
  baseUrl: string;
  /** The next `n` message requests fail (HTTP 500), as an upstream outage would. */
  failNext(n: number): void;
  /** Message requests wait until `release()` is called (a delivery in flight). */
  hold(): { release(): void; arrived: Promise<void> };
  /** Message requests answered so far (failed ones included). */
  attempts: number;
  close(): Promise<void>;
}

/**
 * A local HTTP server for the upstream fakes: `route` answers each request with a JSON body;
 * `isMessage` marks the requests that failNext / hold apply to (not the token requests).
 */
export const startFakeServer = async (
  route: (request: FakeRequest) => unknown,
  isMessage: (request: FakeRequest) => boolean,
): Promise<FakeServer> => {
  let failing = 0;
  let gate: { promise: Promise<void>; arrivedResolve: () => void } | null = null;
  const state = { attempts: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = raw ? JSON.parse(raw) : null;
        } catch {
          json = null;
        }
        const request = {
          method: req.method ?? 'GET',
          url: new URL(req.url ?? '/', 'http://fake'),
          headers: req.headers,
          raw,
          json,
        };
        if (isMessage(request)) {
          state.attempts++;
          if (gate) {
            gate.arrivedResolve();
            await gate.promise;
          }
          if (failing > 0) {
            failing--;
            res
              .writeHead(500, { 'content-type': 'application/json' })
              .end('{"errmsg":"fake outage"}');
            return;
          }
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(route(request)));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    failNext: (n) => {
      failing = n;
    },
    hold() {
      let release!: () => void;
      let arrivedResolve!: () => void;
      const promise = new Promise<void>((r) => (release = r));
      const arrived = new Promise<void>((r) => (arrivedResolve = r));
      gate = { promise, arrivedResolve };
      return {
        arrived,
        release: () => {
          gate = null;
          release();
        },
      };
    },
    get attempts() {
      return state.attempts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
