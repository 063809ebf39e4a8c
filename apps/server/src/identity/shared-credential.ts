import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from './provider-http.ts';

/** The row every instance reads (provider_credentials), as identity's repository keeps it. */
export interface CredentialStore {
  readCredential(name: string): Promise<{ value: string; expiresAt: Date } | undefined>;
  /**
   * Takes the refresh until `claim.until`, if the stored value expires before `claim.staleBefore`
   * and no other instance holds the refresh at `claim.now`: true if taken. (Another instance may
   * have stored a new value since it was read: refetching it would void that one.)
   */
  claimCredential(
    name: string,
    claim: { now: Date; until: Date; staleBefore: Date },
  ): Promise<boolean>;
  /** Stores a new value and gives the refresh back. */
  saveCredential(name: string, value: string, expiresAt: Date): Promise<void>;
  releaseCredential(name: string): Promise<void>;
}

export interface SharedCredentialOptions {
  /** Fetched again this long before it expires (while the old value still works). */
  renewEarlyMs: number;
  /** How long a claimed refresh may take before another instance may take it over. */
  leaseMs?: number;
  /** How often an instance looks for the value another is fetching. */
  pollMs?: number;
  now?: () => number;
}

/**
 * A value a platform allows once per application (DingTalk's jsapi_ticket, whose refetch may
 * void the one the others signed with), shared by every instance through one database row. The
 * stored value is used until shortly before it expires; then the one instance that claims the
 * refresh fetches a new value, and the others wait for it rather than sign with the old value
 * the fetch may void. Concurrent callers of one instance share one read.
 */
export const sharedCredential = (
  store: CredentialStore,
  name: string,
  fetchValue: () => Promise<{ value: string; expiresInS: number }>,
  { renewEarlyMs, leaseMs = 15_000, pollMs = 100, now = Date.now }: SharedCredentialOptions,
): (() => Promise<string>) => {
  const get = async (): Promise<string> => {
    // The instance fetching it may die or hang: its lease runs out first, then this one claims
    // the refresh. Waiting beyond two leases means something else is wrong.
    const deadline = now() + 2 * leaseMs;
    for (;;) {
      const t = now();
      const row = await store.readCredential(name);
      if (row && row.expiresAt.getTime() - renewEarlyMs > t) return row.value;
      const claim = {
        now: new Date(t),
        until: new Date(t + leaseMs),
        staleBefore: new Date(t + renewEarlyMs),
      };
      if (await store.claimCredential(name, claim)) {
        try {
          const { value, expiresInS } = await fetchValue();
          await store.saveCredential(name, value, new Date(now() + expiresInS * 1000));
          return value;
        } catch (error) {
          await store.releaseCredential(name).catch(() => undefined);
          throw error;
        }
      }
      if (now() > deadline) throw new ProviderError(`${name}: no value in time`);
      await sleep(pollMs);
    }
  };
  let pending: Promise<string> | null = null;
  return () =>
    (pending ??= get().finally(() => {
      pending = null;
    }));
};
