import { alertsApi } from '@linewatch/contracts/alerts-api';
import type { Endpoint } from '@linewatch/contracts/endpoint';
import { ReplyCode } from '@linewatch/contracts/envelope';

/**
 * What a handler receives: a GET's query arrives as the strings the browser sent (the server's
 * schemas coerce them, the fake does not), a POST's JSON body keeps its types.
 */
export type Received<Input> = Input extends object
  ? { [K in keyof Input]?: Input[K] | string }
  : undefined;

const FAILURE = Symbol('failure');
interface Failure {
  [FAILURE]: true;
  code: string;
  msg: string;
  status: number;
  data: unknown;
}

/**
 * A refusal in the envelope (`{ success: false, code, msg, data }`), e.g. 0403 无权查看, or a
 * refused import with every bad row in `data.errors`.
 */
export const failure = (
  code: string,
  msg: string,
  status = 200,
  data: unknown = null,
): Failure => ({
  [FAILURE]: true,
  code,
  msg,
  status,
  data,
});

type Handler<Input, Reply> = (
  input: Received<Input>,
  url: URL,
) => Reply | Failure | Promise<Reply | Failure>;

interface Route {
  method: string;
  path: string;
  handler: (input: unknown, url: URL) => unknown;
  calls: unknown[];
}

const isFailure = (reply: unknown): reply is Failure =>
  typeof reply === 'object' && reply !== null && FAILURE in reply;

const envelope = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * The server, faked per endpoint of the contracts' tables: `fakeApi().on(devicesApi.machineList,
 * (input) => reply)`. `fetch` is matched by method and path; the reply is wrapped in the
 * envelope. A request no handler takes fails the fetch and is listed in `unhandled`.
 */
export const fakeApi = () => {
  const routes: Route[] = [];
  const unhandled: string[] = [];
  const routeOf = (endpoint: { method: string; path: string }) =>
    routes.find((route) => route.method === endpoint.method && route.path === endpoint.path);

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://app.test',
    );
    const method = init?.method ?? 'GET';
    const route = routes.find(
      (candidate) => candidate.method === method && candidate.path === url.pathname,
    );
    if (!route) {
      unhandled.push(`${method} ${url.pathname}`);
      throw new TypeError(`fakeApi: no handler for ${method} ${url.pathname}`);
    }
    const received: unknown =
      method === 'GET'
        ? Object.fromEntries(url.searchParams)
        : typeof init?.body === 'string'
          ? JSON.parse(init.body)
          : undefined;
    route.calls.push(received);
    const reply = await route.handler(received, url);
    // A file (not an envelope), headers and all, as the server sends a workbook.
    if (reply instanceof Response) return reply;
    if (isFailure(reply)) {
      return envelope(
        { success: false, code: reply.code, msg: reply.msg, data: reply.data },
        reply.status,
      );
    }
    return envelope({ success: true, code: ReplyCode.ok, msg: '', data: reply ?? null });
  };

  const api = {
    /** Answers an endpoint (replacing an earlier handler of the same endpoint). */
    on<Input, Reply>(endpoint: Endpoint<Input, Reply>, handler: Handler<Input, Reply>) {
      const untyped = handler as Route['handler'];
      const known = routeOf(endpoint);
      if (known) known.handler = untyped;
      else
        routes.push({ method: endpoint.method, path: endpoint.path, handler: untyped, calls: [] });
      return api;
    },
    /** What an endpoint received, oldest first. */
    calls<Input, Reply>(endpoint: Endpoint<Input, Reply>): Received<Input>[] {
      return (routeOf(endpoint)?.calls ?? []) as Received<Input>[];
    },
    fetch,
    unhandled,
  };
  // Every tab page asks how many messages are unread (shared/unread.ts): none, unless a test says.
  api.on(alertsApi.unread, () => ({ unread: 0 }));
  return api;
};

export type FakeApi = ReturnType<typeof fakeApi>;
