/**
 * How failed sign-ins reach the audit log without an attacker's guesses flooding it: failures are
 * counted into one entry per account (or, for an account that does not exist, per address) and
 * quarter hour — the login throttle's window, so an entry covers what the throttle counts — with
 * the methods, reasons, addresses and accounts seen (the first five of each). One instance opens
 * at most FAILURE_ENTRIES_PER_WINDOW such entries a window; failures past that, from many
 * addresses guessing many accounts, are counted into one overflow entry. The log grows by at most
 * about 100 entries a quarter hour per instance however hard it is hammered; successes are one
 * entry each, as people sign in.
 */
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const FAILURE_ENTRIES_PER_WINDOW = 100;

export type SignInMethod = 'password' | 'wechat' | 'dingtalk';
export type FailureReason =
  'wrongCredentials' | 'throttled' | 'disabled' | 'authorizationExpired' | 'providerRefused';

/** Which entry a failure is counted into: `subject` (`user:<id>`, `address:<ip>`) or overflow. */
export class FailureEntries {
  #window = -1;
  readonly #subjects = new Set<string>();

  constructor(private readonly limit = FAILURE_ENTRIES_PER_WINDOW) {}

  entryFor(subject: string, now: number): { key: string; overflow: boolean } {
    const window = now - (now % FAILURE_WINDOW_MS);
    if (window !== this.#window) {
      this.#window = window;
      this.#subjects.clear();
    }
    const overflow = !this.#subjects.has(subject) && this.#subjects.size >= this.limit;
    if (!overflow) this.#subjects.add(subject);
    const counted = overflow ? 'overflow' : subject;
    return { key: `signIn.failed:${counted}:${new Date(window).toISOString()}`, overflow };
  }
}
