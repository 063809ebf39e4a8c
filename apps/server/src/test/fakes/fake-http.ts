import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The address the test servers that sign in with the fakes are configured with (PUBLIC_URL): the
 * WeChat fake's authorised domain. Nothing listens there; tests read the code and state from the
 * address WeChat sends the browser back to.
 */
export const TEST_PUBLIC_URL = 'https://linewatch.test';

interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

/** A text field of a JSON body ('' when absent or not text). */
export const textField = (body: Record<string, unknown>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value : '';
};

type FakeAnswer = { json: unknown } | { redirect: string };

interface RunningFake {
  baseUrl: string;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
};

const send = (response: ServerResponse, answer: FakeAnswer | null) => {
  if (!answer) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ errcode: 404, errmsg: 'not found' }));
  } else if ('redirect' in answer) {
    response.writeHead(302, { location: answer.redirect });
    response.end();
  } else {
    // Both platforms answer refusals with HTTP 200 and an errcode.
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(answer.json));
  }
};

/** A platform's HTTP API on a random local port, answering by `handle`. */
export const startFakeHttp = async (
  handle: (request: FakeRequest) => FakeAnswer | null,
): Promise<RunningFake> => {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const body = await readBody(request);
      send(
        response,
        handle({
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body,
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
