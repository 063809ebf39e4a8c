/**
 * Authorisation codes already used, remembered for as long as the provider would honour them
 * (WeChat and DingTalk: five minutes). The provider refuses a second exchange too; this answers a
 * replay without asking it, and covers a provider that would not. One instance's memory: behind a
 * load balancer the provider's own refusal is what holds.
 */
export class SpentCodes {
  // Insertion order is expiry order (one fixed lifetime), so expired entries sit at the front.
  #spent = new Map<string, number>();

  constructor(private readonly lifetimeMs: number) {}

  /** True the first time a code is seen within its lifetime. */
  spend(code: string, now = Date.now()): boolean {
    for (const [old, expiresAt] of this.#spent) {
      if (expiresAt > now) break;
      this.#spent.delete(old);
    }
    if (this.#spent.has(code)) return false;
    this.#spent.set(code, now + this.lifetimeMs);
    return true;
  }
}
