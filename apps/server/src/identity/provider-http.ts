/** A messaging platform refused or did not answer; the message is for the server log only. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

const TIMEOUT_MS = 10_000;

interface ProviderReply {
  errcode?: number;
  errmsg?: string;
}

/**
 * One call to WeChat or DingTalk. Both answer HTTP 200 with `errcode` for a refusal (0 or absent
 * means success), so the status alone says nothing.
 */
export const providerCall = async <T>(url: URL, init: RequestInit = {}): Promise<T> => {
  let reply: T & ProviderReply;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    reply = (await response.json()) as T & ProviderReply;
  } catch (error) {
    throw new ProviderError(`${url.pathname}: ${(error as Error).message}`);
  }
  if (reply.errcode) throw new ProviderError(`${url.pathname}: ${reply.errcode} ${reply.errmsg}`);
  return reply;
};
