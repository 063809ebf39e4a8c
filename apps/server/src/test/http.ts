import { identityApi } from '@linewatch/contracts/identity-api';
import type { Envelope } from '@linewatch/contracts/envelope';
import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { encryptPassword } from '@linewatch/contracts/password-cipher';

/** The REST API as a phone calls it. */

interface ApiReply<T = unknown> {
  status: number;
  body: Envelope<T>;
  text: string;
  headers: Headers;
}

const request = async <T>(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiReply<T>> => {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left null: the test looks at `text`
  }
  return { status: response.status, body: parsed as Envelope<T>, text, headers: response.headers };
};

/** POSTs the login form as the web app does, the password encrypted by the spec's scheme. */
export const loginRequest = (
  baseUrl: string,
  body: { psnCode: string; passWord: string; openId?: string },
  headers: Record<string, string> = {},
) =>
  request<{ keyId: string }>(baseUrl, 'POST', identityApi.wechatBindUser.path, {
    body,
    headers,
  });

/** Signs in and returns the keyId (fails the test if the login is refused). */
export const login = async (baseUrl: string, psnCode: string, password: string) => {
  const reply = await loginRequest(baseUrl, { psnCode, passWord: encryptPassword(password) });
  if (reply.status !== 200 || !reply.body.success) {
    throw new Error(`login of ${psnCode} failed: ${reply.status} ${reply.text}`);
  }
  return reply.body.data.keyId;
};

const queryString = (query: Record<string, string | number | undefined> = {}) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * Calls the API as a signed-in phone: keyId in its header, or (`via: 'cookie'`) only in the
 * cookie as a browser's cross-site request would carry it.
 */
export const api = (baseUrl: string, keyId?: string, via: 'header' | 'cookie' = 'header') => {
  const auth: Record<string, string> = !keyId
    ? {}
    : via === 'header'
      ? { [KEY_ID_HEADER]: keyId }
      : { cookie: `${KEY_ID_COOKIE}=${keyId}` };
  return {
    get: <T = unknown>(path: string, query?: Record<string, string | number | undefined>) =>
      request<T>(baseUrl, 'GET', path + queryString(query), { headers: auth }),
    post: <T = unknown>(path: string, body?: unknown) =>
      request<T>(baseUrl, 'POST', path, { headers: auth, body: body ?? {} }),
  };
};
