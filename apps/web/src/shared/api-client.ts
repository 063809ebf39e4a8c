import type { Endpoint } from '@linewatch/contracts/endpoint';
import { messages, ReplyCode } from '@linewatch/contracts/envelope';
import { KEY_ID_HEADER, REQUEST_TIMEOUT_MS } from '@linewatch/contracts/limits';
import { browserIsOffline, noteServerReached, noteServerUnreachable } from './connectivity.ts';
import { webMessages } from './messages.ts';
import { expireSession } from './session-expired.ts';
import { useSession } from './session-store.ts';
import { toastFailure } from './toast.ts';

/** Codes the client adds for failures that never reached an envelope. */
const ClientCode = { network: 'network', timeout: 'timeout' } as const;

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The refusal's `data`, e.g. every bad row of an import (`data.errors`). */
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface RequestOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, unknown>;
  body?: unknown;
  /** Cancellation by the caller (React Query); a cancelled request shows no toast. */
  signal?: AbortSignal;
}

const isEnvelope = (value: unknown): value is { code: string; msg?: unknown; data?: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { code?: unknown }).code === 'string';

const withQuery = (path: string, query: RequestOptions['query']): string => {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      params.set(name, String(value));
    }
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

const fail = (code: string, message: string, data: unknown = null): never => {
  toastFailure(message);
  throw new ApiError(code, message, data);
};

/** An envelope's data, or its failure toasted and thrown (0405 signs out). */
const settle = <T>(reply: unknown): T => {
  if (!isEnvelope(reply)) return fail(ReplyCode.fault, messages.fault);
  const msg = typeof reply.msg === 'string' && reply.msg ? reply.msg : undefined;
  if (reply.code === ReplyCode.notSignedIn) {
    expireSession();
    throw new ApiError(reply.code, msg ?? messages.notSignedIn);
  }
  if (reply.code !== ReplyCode.ok) return fail(reply.code, msg ?? messages.fault, reply.data);
  return reply.data as T;
};

/**
 * fetch under the app's request timeout, with the body read by `read` under the same timer and
 * the session's keyId sent. A dropped connection or no answer in time is toasted and thrown as an
 * ApiError; a cancellation by the caller's `signal` is thrown as it is, silently. While the
 * browser says it is offline nothing is sent: the network error comes at once, not after the
 * timeout (docs/architecture.md, "Offline").
 */
export const fetchInTime = async <T>(
  url: string,
  init: Omit<RequestInit, 'signal' | 'credentials'>,
  read: (response: Response, aborted: () => boolean) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> => {
  if (browserIsOffline()) return fail(ClientCode.network, webMessages.networkError);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const cancel = () => controller.abort();
  signal?.addEventListener('abort', cancel);
  const headers = new Headers(init.headers);
  const keyId = useSession.getState().keyId;
  if (keyId) headers.set(KEY_ID_HEADER, keyId);
  try {
    const response = await fetch(url, {
      ...init,
      headers,
      credentials: 'same-origin',
      signal: controller.signal,
    });
    noteServerReached();
    return await read(response, () => controller.signal.aborted);
  } catch (error) {
    if (timedOut) {
      noteServerUnreachable();
      return fail(ClientCode.timeout, webMessages.timeout);
    }
    if (signal?.aborted) throw error;
    noteServerUnreachable();
    return fail(ClientCode.network, webMessages.networkError);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
};

/**
 * The one way the app talks to the server: envelope in, data out, failures toasted. T is the
 * contract type of data; the server already answers through the contract's reply schema, and
 * re-parsing here would put zod on the first screen.
 */
const apiRequest = async <T = unknown>(path: string, options: RequestOptions = {}): Promise<T> => {
  const { method = 'GET', query, body, signal } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const reply = await fetchInTime(
    withQuery(path, query),
    { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
    async (response, aborted): Promise<unknown> => {
      try {
        return await response.json();
      } catch (error) {
        // Cancelled or timed out while the body came: handled like an abort before it.
        if (aborted()) throw error;
        return undefined;
      }
    },
    signal,
  );
  return settle<T>(reply);
};

/**
 * Calls one endpoint of the contracts' tables (`<domain>-api.ts`): a GET sends `input` as its
 * query, a POST as its JSON body; resolves with the reply's data, typed by the table.
 */
export const call = <Input, Reply>(
  endpoint: Endpoint<Input, Reply>,
  input: Input,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Reply> =>
  apiRequest<Reply>(endpoint.path, {
    method: endpoint.method,
    ...(endpoint.method === 'GET'
      ? { query: input as Record<string, unknown> | undefined }
      : { body: input }),
    ...(signal ? { signal } : {}),
  });

/**
 * A request whose failure the spec names in its own words (获取产品线失败…): the client's toast
 * is replaced by those words and the reason. A sign-out or a cancelled request stays silent, and
 * a refusal of access keeps its own words (无权查看，请联系管理员).
 */
export const failingWith = <T>(message: string, request: Promise<T>): Promise<T> =>
  request.catch((error: unknown) => {
    if (
      error instanceof ApiError &&
      error.code !== ReplyCode.notSignedIn &&
      error.code !== ReplyCode.forbidden
    )
      toastFailure(`${message}：${error.message}`);
    throw error;
  });

/**
 * Sends files as multipart to `path` with upload progress (0..1), which fetch cannot report:
 * XMLHttpRequest, with the same keyId header, timeout, envelope and failure toasts as `call`.
 */
export const upload = <Reply>(
  path: string,
  files: readonly File[],
  onProgress: (fraction: number) => void,
): Promise<Reply> =>
  new Promise<unknown>((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    const keyId = useSession.getState().keyId;
    if (keyId) xhr.setRequestHeader(KEY_ID_HEADER, keyId);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText));
      } catch {
        resolve(undefined);
      }
    };
    xhr.onerror = () => reject(new ApiError(ClientCode.network, webMessages.networkError));
    xhr.ontimeout = () => reject(new ApiError(ClientCode.timeout, webMessages.timeout));
    xhr.send(form);
  }).then(
    (reply) => settle<Reply>(reply),
    (error: ApiError) => fail(error.code, error.message),
  );
