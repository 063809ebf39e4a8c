import { GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../shared/session-store.ts';
import { buildUserInfo } from '../testing/builders.ts';
import {
  keepLastKnown,
  LAST_KNOWN_KEY,
  lastKnownOwner,
  MAX_AGE_MS,
  restoreLastKnown,
  saveLastKnown,
} from './last-known.ts';
import { createQueryClient, forgetOnSignOut } from './providers.tsx';

const LIST = ['devices', 'list', {}] as const;
const HOUR = 60 * 60_000;

const signIn = (keyId: string, name = '王工') => {
  useSession.getState().signIn(keyId);
  useSession.getState().setProfile(buildUserInfo({ name }), GRANTED_ROLES);
};

/** A page session that showed the device list at `at`, saved then. */
const shownAndSaved = (keyId: string, at = Date.now()) => {
  signIn(keyId);
  const client = createQueryClient();
  client.setQueryData(LIST, ['LW-S1-001'], { updatedAt: at });
  saveLastKnown(client, at);
  return client;
};

beforeEach(() => localStorage.clear());
afterEach(() => {
  useSession.getState().clear();
  localStorage.clear();
  vi.useRealTimers();
});

describe('the last-known data kept for offline', () => {
  it('comes back after a reload, with the time it was fetched (the banner’s age)', () => {
    const at = Date.now() - 3 * 60_000;
    shownAndSaved('key-1', at);
    // A reload: a new cache, the same session.
    const reloaded = createQueryClient();
    expect(lastKnownOwner('key-1')).toMatchObject({ keyId: 'key-1', user: { name: '王工' } });
    restoreLastKnown(reloaded, 'key-1');
    expect(reloaded.getQueryData(LIST)).toEqual(['LW-S1-001']);
    expect(reloaded.getQueryState(LIST)?.dataUpdatedAt).toBe(at);
    // Shown while the server is asked again: a page opening on it fetches, fresh or not.
    expect(reloaded.getQueryState(LIST)?.isInvalidated).toBe(true);
  });

  it('is restored once a page load: the guard runs at every navigation, and a second restore would ask again for data just fetched and saved', () => {
    const at = Date.now() - 60_000;
    shownAndSaved('key-1', at);
    const page = createQueryClient();
    restoreLastKnown(page, 'key-1');
    // The page asks the server, gets its answer, and that answer is saved in turn.
    const fetchedAt = Date.now();
    page.setQueryData(LIST, ['LW-S1-002'], { updatedAt: fetchedAt });
    saveLastKnown(page, fetchedAt);
    expect(page.getQueryState(LIST)?.isInvalidated).toBe(false);
    // The next navigation (a filter in the address) runs the guard again.
    restoreLastKnown(page, 'key-1');
    expect(page.getQueryData(LIST)).toEqual(['LW-S1-002']);
    expect(page.getQueryState(LIST)?.isInvalidated).toBe(false);
  });

  it('names whoever signed in last for a cold start, where no session is known', () => {
    shownAndSaved('key-1');
    // A webview killed in the background: its sessionStorage gone, nothing signed out.
    sessionStorage.clear();
    expect(lastKnownOwner(null)?.keyId).toBe('key-1');
  });

  it('is never another session’s: a new sign-in neither reads nor keeps the old one', () => {
    shownAndSaved('key-1');
    const other = createQueryClient();
    restoreLastKnown(other, 'key-2');
    expect(other.getQueryData(LIST)).toBeUndefined();
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();

    shownAndSaved('key-1');
    expect(lastKnownOwner('key-2')).toBeNull();
    expect(lastKnownOwner(null)).toBeNull();
  });

  it('lasts a day: a snapshot saved longer ago is gone, and so is any older data in it', () => {
    const now = Date.now();
    shownAndSaved('key-1', now - MAX_AGE_MS - HOUR);
    expect(lastKnownOwner('key-1', now)).toBeNull();
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();

    // Saved an hour ago, but the list was fetched 25 hours ago: not shown as last-known.
    signIn('key-1');
    const client = createQueryClient();
    client.setQueryData(LIST, ['LW-S1-001'], { updatedAt: now - MAX_AGE_MS - HOUR });
    client.setQueryData(['statistics', 'lines'], ['SMT一线'], { updatedAt: now - HOUR });
    saveLastKnown(client, now - HOUR);
    const reloaded = createQueryClient();
    restoreLastKnown(reloaded, 'key-1', now);
    expect(reloaded.getQueryData(LIST)).toBeUndefined();
    expect(reloaded.getQueryData(['statistics', 'lines'])).toEqual(['SMT一线']);
  });

  it('is another build’s no more', () => {
    shownAndSaved('key-1');
    const saved = JSON.parse(localStorage.getItem(LAST_KNOWN_KEY)!) as { build: string };
    localStorage.setItem(LAST_KNOWN_KEY, JSON.stringify({ ...saved, build: 'an-older-build' }));
    expect(lastKnownOwner('key-1')).toBeNull();
  });

  it('is forgotten at sign-out, at the session’s expiry and when another user signs in', () => {
    const client = createQueryClient();
    const stop = forgetOnSignOut(client);
    shownAndSaved('key-1');
    // Sign-out and expiry (expireSession) both clear the session.
    useSession.getState().clear();
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();

    shownAndSaved('key-1');
    signIn('key-2', '李工');
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();
    stop();
  });

  it('is saved only for a session with its profile, and only the floor’s screens', () => {
    const client = createQueryClient();
    client.setQueryData(LIST, ['LW-S1-001']);
    saveLastKnown(client);
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();

    signIn('key-1');
    client.setQueryData(['admin', 'users'], ['every user']);
    client.setQueryData(['map', 'geo', 'china.json'], { type: 'FeatureCollection' });
    client.setQueryData(['map', 'status', { area: '' }], { running: 3 });
    saveLastKnown(client);
    const reloaded = createQueryClient();
    restoreLastKnown(reloaded, 'key-1');
    expect(
      reloaded
        .getQueryCache()
        .getAll()
        .map((q) => `${String(q.queryKey[0])}/${String(q.queryKey[1])}`),
    ).toEqual(['devices/list', 'map/status']);
  });

  it('is written a moment after replies arrive, and at once when the page is hidden', async () => {
    vi.useFakeTimers();
    signIn('key-1');
    const client = createQueryClient();
    const stop = keepLastKnown(client);
    await client.fetchQuery({ queryKey: LIST, queryFn: () => ['LW-S1-001'] });
    await client.fetchQuery({ queryKey: ['statistics', 'lines'], queryFn: () => ['SMT一线'] });
    expect(localStorage.getItem(LAST_KNOWN_KEY)).toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(lastKnownOwner('key-1')?.keyId).toBe('key-1');

    localStorage.clear();
    await client.fetchQuery({ queryKey: ['history', 'figures'], queryFn: () => ({}) });
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(lastKnownOwner('key-1')?.keyId).toBe('key-1');
    stop();
  });
});
