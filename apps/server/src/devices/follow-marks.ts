/** How long a user's marks are kept at most, when a notice from another instance was lost. */
const MAX_AGE_MS = 10_000;
/** Beyond this many users the marks start again. */
const LIMIT = 1_000;

/**
 * Each user's followed machines, kept between device-list requests so that a page asks the
 * database nothing: forgotten when the user follows or unfollows (`forget`: through this server,
 * or through another that announced it, db/notices.ts `follows_changed`), when notices may have
 * been lost (`forgetAll`), when the machines change (the device registry's version: a machine
 * deleted takes its follows with it), and after MAX_AGE_MS. Marks read while a forget happened
 * are not kept.
 */
export class FollowMarks {
  #byUser = new Map<number, { sns: ReadonlySet<string>; at: number }>();
  /** Bumped by every forget and clear: a read that spans one keeps nothing. */
  #generation = 0;
  #registryVersion: number;

  constructor(
    private readonly load: (userId: number) => Promise<Set<string>>,
    private readonly registryVersion: () => number,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {
    this.#registryVersion = registryVersion();
  }

  async of(userId: number, now = Date.now()): Promise<ReadonlySet<string>> {
    if (this.registryVersion() !== this.#registryVersion) this.forgetAll();
    const kept = this.#byUser.get(userId);
    if (kept && now - kept.at < this.maxAgeMs) return kept.sns;
    const generation = this.#generation;
    const sns = await this.load(userId);
    if (generation === this.#generation && this.registryVersion() === this.#registryVersion) {
      if (this.#byUser.size >= LIMIT) this.#byUser.clear();
      this.#byUser.set(userId, { sns, at: now });
    }
    return sns;
  }

  /** The user's follows changed. */
  forget(userId: number) {
    this.#generation++;
    this.#byUser.delete(userId);
  }

  /** Anyone's follows may have changed. */
  forgetAll() {
    this.#generation++;
    this.#byUser.clear();
    this.#registryVersion = this.registryVersion();
  }
}
