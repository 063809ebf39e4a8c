/** How long a session read from the database is trusted without asking again. */
export const SESSION_CACHE_MS = 1000;

/**
 * Sessions recently read, by key hash, so that a burst of requests on one session (a page's list,
 * summary and menu, refreshed every few seconds) asks the database once a second, not once a
 * request. This instance's sign-outs, disabled users and changed users drop their entries at once; a session
 * ended by another instance, or in the database directly, is honoured within SESSION_CACHE_MS
 * (sockets check sessions every 2 s, so nothing lives longer than it already did).
 */
export class SessionCache<T> {
  // Insertion order is expiry order (one fixed lifetime), so stale entries sit at the front.
  #entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly lifetimeMs = SESSION_CACHE_MS) {}

  get(keyHash: string, now = Date.now()): T | undefined {
    const entry = this.#entries.get(keyHash);
    return entry && entry.until > now ? entry.value : undefined;
  }

  set(keyHash: string, value: T, now = Date.now()): void {
    for (const [old, entry] of this.#entries) {
      if (entry.until > now) break;
      this.#entries.delete(old);
    }
    this.#entries.delete(keyHash);
    this.#entries.set(keyHash, { value, until: now + this.lifetimeMs });
  }

  drop(keyHash: string): void {
    this.#entries.delete(keyHash);
  }

  /** Forgets every entry `stale` picks (a user whose name or rights changed). */
  dropWhere(stale: (value: T) => boolean): void {
    for (const [keyHash, entry] of this.#entries)
      if (stale(entry.value)) this.#entries.delete(keyHash);
  }
}
