/**
 * Counts failed logins per key in a sliding window. In memory: one server instance's view,
 * which is enough to stop guessing; several instances each enforce their own limit.
 */
export class LoginThrottle {
  #failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  isBlocked(key: string, now = Date.now()): boolean {
    return this.#recent(key, now).length >= this.limit;
  }

  fail(key: string, now = Date.now()): void {
    const recent = this.#recent(key, now);
    recent.push(now);
    this.#failures.set(key, recent);
  }

  reset(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string, now: number): number[] {
    const recent = (this.#failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length === 0) this.#failures.delete(key);
    return recent;
  }
}
