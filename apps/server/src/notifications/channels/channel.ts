import type { ChannelName, NoticeFields } from '../notice.ts';

/** One message on its way to one person on one channel. */
export interface OutgoingMessage {
  /**
   * The outbox row's id: the same on every attempt, so a receiver that was reached by an attempt
   * whose answer got lost (a crash, a timeout) can drop the repeat (WeChat's client_msg_id, the
   * last line of a DingTalk work notice, the webhook's X-Linewatch-Delivery).
   */
  deliveryId: string;
  /** openId, DingTalk userid or webhook URL. */
  target: string;
  kind: string;
  title: string;
  body: string;
  /** Its facts, short (what a WeChat template's fields show). */
  fields: NoticeFields;
  /** Absolute URL of what the message is about (PUBLIC_URL + the app path), when there is one. */
  url: string | null;
  createdAt: Date;
}

/** Whether a message taken by a service reached its person: yes, why not, or not known yet. */
export type Confirmation = { reached: true } | { reached: false; reason: string } | null;

export interface Channel {
  readonly name: ChannelName;
  /**
   * Resolves when the service took the message; throws with the service's reason otherwise.
   * Resolves with a receipt when taking is not yet delivering (DingTalk's asyncsend_v2): the
   * outbox confirms it later.
   */
  send(message: OutgoingMessage): Promise<string | void>;
  /** What became of the message a receipt names, for its target (channels that give receipts). */
  confirm?(receipt: string, target: string): Promise<Confirmation>;
}

/**
 * A refusal no retry can change (the webhook guard refused the address): the outbox marks the
 * message failed at once instead of asking again with backoff.
 */
export class UndeliverableError extends Error {}

export const REQUEST_TIMEOUT_MS = 10_000;

/** A JSON request to an upstream API; a non-2xx answer throws with its status. */
export const fetchJson = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${new URL(url).pathname}`);
  return (await response.json()) as T;
};

/**
 * An access token fetched from an app id and secret, kept until five minutes before it expires
 * and fetched again when the API says it is no longer valid. Each instance keeps its own: the
 * token endpoints used (WeChat's stable_token in normal mode, DingTalk's gettoken) answer every
 * caller with the same token while it is valid, so one instance's fetch never voids another's.
 */
export class TokenCache {
  #token: { value: string; expiresAt: number } | null = null;
  #pending: Promise<string> | null = null;

  constructor(
    private readonly fetchToken: () => Promise<{ token: string; expiresInS: number }>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached token, or a fresh one (concurrent callers share one fetch). */
  async get(): Promise<string> {
    if (this.#token && this.#token.expiresAt > this.now()) return this.#token.value;
    this.#pending ??= this.fetchToken()
      .then(({ token, expiresInS }) => {
        // Five minutes early: a token used at the edge of its life fails in flight, and WeChat's
        // stable_token gives out the next token only in the last five minutes of the current.
        this.#token = {
          value: token,
          expiresAt: this.now() + Math.max(0, expiresInS - 300) * 1000,
        };
        return token;
      })
      .finally(() => {
        this.#pending = null;
      });
    return this.#pending;
  }

  invalidate(token: string) {
    if (this.#token?.value === token) this.#token = null;
  }
}
