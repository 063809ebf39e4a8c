/** How long a session read from the database is trusted without asking again. */
export const SESSION_CACHE_MS = 1000;

/**
 * Sessions recently read, by key hash, so that a burst of requests on one session (a page's list,
 * summary and menu, refreshed every few seconds) asks the database once a second, not once a
 * request. Sign-outs, disabled users and changed users drop their entries at once, on this
 * instance and, told by a notice (db/notices.ts), on the others; only a change made in the
 * database directly waits for SESSION_CACHE_MS.
 */
export class SessionCache<T> {
  // Insertion order is expiry order (one fixed lifetime), so stale entries sit at the front.
  #entries = new Map<string, { value: T; until: number }>();
  /** Bumped by every drop: a read that spans one is not kept (it may predate what dropped). */
  #generation = 0;

  constructor(private readonly lifetimeMs = SESSION_CACHE_MS) {}

  get(keyHash: string, now = Date.now()): T | undefined {
    const entry = this.#entries.get(keyHash);
    return entry && entry.until > now ? entry.value : undefined;
  }

  /** Taken before reading from the database; `set` keeps the read only if nothing dropped since. */
  mark(): number {
    return this.#generation;
  }

  set(keyHash: string, value: T, mark: number, now = Date.now()): void {
    if (mark !== this.#generation) return;
    for (const [old, entry] of this.#entries) {
      if (entry.until > now) break;
      this.#entries.delete(old);
    }
    this.#entries.delete(keyHash);
    this.#entries.set(keyHash, { value, until: now + this.lifetimeMs });
  }

  drop(keyHash: string): void {
    this.#generation++;
    this.#entries.delete(keyHash);
  }

  /** Forgets every entry `stale` picks (a user whose name or rights changed). */
  dropWhere(stale: (value: T) => boolean): void {
    this.#generation++;
    for (const [keyHash, entry] of this.#entries)
      if (stale(entry.value)) this.#entries.delete(keyHash);
  }

  /** Forgets everything (notices from other instances may have been lost). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
