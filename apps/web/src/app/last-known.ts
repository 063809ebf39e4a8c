import type { SignedInWith, UserInfo } from '@linewatch/contracts/identity';
import {
  dehydrate,
  hydrate,
  type DehydratedState,
  type Query,
  type QueryClient,
} from '@tanstack/react-query';
import { useSession } from '../shared/session-store.ts';

/*
 * The last-known data across a reload or a cold start (docs/architecture.md, "Offline"). Inside
 * WeChat the webview is often killed in the background; reopened on a dead spot of the factory
 * floor, the in-memory cache is gone and the server cannot say who the user is. So the query
 * cache of the signed-in session is kept in localStorage, with the profile it was shown to:
 *
 * - one session's only: a snapshot names its session (keyId); another session never reads it,
 *   and it is forgotten at sign-out and at the session's expiry;
 * - a day at most: data older than MAX_AGE_MS is not shown, a snapshot saved longer ago is gone;
 * - one build's only: a new build may read the data otherwise (BUILD);
 * - offline only is it used: when the server gives no answer, the profile is believed and the
 *   data restored; online the server's answer decides (a revoked session still lands on
 *   /login?reason=expired) and pages load as on a first visit.
 */
export const LAST_KNOWN_KEY = 'lw-last-known';
export const MAX_AGE_MS = 24 * 60 * 60_000;
/** Saves are gathered: one write per burst of replies. */
const SAVE_DELAY_MS = 1_000;
const BUILD = import.meta.env.VITE_BUILD_ID ?? 'dev';

/** Who the snapshot's data was shown to: what the guard signs in with offline. */
export interface LastKnownOwner {
  keyId: string;
  user: UserInfo;
  roles: readonly string[];
  signedInWith: SignedInWith;
}

interface Snapshot {
  build: string;
  savedAt: number;
  owner: LastKnownOwner;
  queries: DehydratedState;
}

/**
 * The screens a worker reads on the floor. Not the map's GeoJSON (megabytes, static, fetched
 * again), nor the administration's lists, nor an application's progress (no signed-in user).
 */
const KEPT_DOMAINS: ReadonlySet<unknown> = new Set([
  'devices',
  'telemetry',
  'history',
  'statistics',
  'map',
  'subscriptions',
  'alerts',
  'cases',
  'faca',
]);

const kept = (query: Query): boolean =>
  query.state.status === 'success' &&
  KEPT_DOMAINS.has(query.queryKey[0]) &&
  !(query.queryKey[0] === 'map' && query.queryKey[1] === 'geo');

const storage = (): Storage | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

export const forgetLastKnown = (): void => {
  try {
    storage()?.removeItem(LAST_KNOWN_KEY);
  } catch {
    // storage disabled: nothing was kept
  }
};

/** The snapshot still valid now (this build's, saved within a day), or null (and it is gone). */
const readSnapshot = (now: number): Snapshot | null => {
  let snapshot: Snapshot | null = null;
  try {
    const raw = storage()?.getItem(LAST_KNOWN_KEY);
    snapshot = raw ? (JSON.parse(raw) as Snapshot) : null;
  } catch {
    snapshot = null;
  }
  if (!snapshot) return null;
  if (
    snapshot.build !== BUILD ||
    typeof snapshot.savedAt !== 'number' ||
    now - snapshot.savedAt > MAX_AGE_MS ||
    !snapshot.owner?.keyId
  ) {
    forgetLastKnown();
    return null;
  }
  return snapshot;
};

/**
 * The profile the last-known data was shown to: of session `keyId` (a reload), or of whoever
 * signed in last when this webview knows no session (a cold start). A snapshot of another session
 * is forgotten.
 */
export const lastKnownOwner = (keyId: string | null, now = Date.now()): LastKnownOwner | null => {
  const snapshot = readSnapshot(now);
  if (!snapshot) return null;
  if (keyId !== null && snapshot.owner.keyId !== keyId) {
    forgetLastKnown();
    return null;
  }
  return snapshot.owner;
};

/** The session each cache (one a page load) was given its last-known data for. */
const restoredSessions = new WeakMap<QueryClient, string>();

/**
 * Puts session `keyId`'s last-known data into the cache, each query with the time it was fetched
 * (the offline banner's age), none older than a day. A snapshot of another session is forgotten.
 * What the cache holds already (fetched since this page load) is newer and stays.
 */
export const restoreLastKnown = (client: QueryClient, keyId: string, now = Date.now()): void => {
  // Once a page load (one cache) and session: the guard runs at every navigation, and by the
  // second the snapshot holds what this page fetched itself; restoring it again would mark that
  // stale and ask the server for it once more (a list drawn twice, its cards shifting).
  if (restoredSessions.get(client) === keyId) return;
  restoredSessions.set(client, keyId);
  const snapshot = readSnapshot(now);
  if (!snapshot) return;
  if (snapshot.owner.keyId !== keyId) {
    forgetLastKnown();
    return;
  }
  const restored = snapshot.queries.queries.filter(
    (query) => now - query.state.dataUpdatedAt <= MAX_AGE_MS,
  );
  hydrate(client, { mutations: [], queries: restored });
  // Shown while the server is asked again, never instead: a reload a few seconds after the last
  // reply would otherwise take it as fresh (staleTime) and ask nothing.
  for (const { queryKey, state } of restored) {
    const query = client.getQueryCache().find({ queryKey, exact: true });
    if (query?.state.dataUpdatedAt === state.dataUpdatedAt) query.invalidate();
  }
};

/** Writes the signed-in session's cache now; nothing without a session and its profile. */
export const saveLastKnown = (client: QueryClient, now = Date.now()): void => {
  const { keyId, user, roles, signedInWith, routesLoaded } = useSession.getState();
  if (!keyId || !user || !routesLoaded) return;
  const snapshot: Snapshot = {
    build: BUILD,
    savedAt: now,
    owner: { keyId, user, roles, signedInWith },
    queries: dehydrate(client, {
      shouldDehydrateQuery: kept,
      shouldDehydrateMutation: () => false,
    }),
  };
  try {
    storage()?.setItem(LAST_KNOWN_KEY, JSON.stringify(snapshot));
  } catch {
    // Full (or private mode): a stale snapshot must not outlive newer data.
    forgetLastKnown();
  }
};

/**
 * Keeps the cache's last-known data as replies arrive, and when the page is hidden or left (a
 * backgrounded webview may be killed without another event). Returns the unsubscribe.
 */
export const keepLastKnown = (client: QueryClient): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    saveLastKnown(client);
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    timer ??= setTimeout(flush, SAVE_DELAY_MS);
  });
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && timer !== null) flush();
  };
  const onLeave = () => {
    if (timer !== null) flush();
  };
  document.addEventListener('visibilitychange', onHidden);
  window.addEventListener('pagehide', onLeave);
  return () => {
    if (timer !== null) clearTimeout(timer);
    unsubscribe();
    document.removeEventListener('visibilitychange', onHidden);
    window.removeEventListener('pagehide', onLeave);
  };
};
