import type { SignedInWith, UserInfo } from '@linewatch/contracts/identity';
import { create } from 'zustand';
import { persist, type PersistStorage, type StorageValue } from 'zustand/middleware';

export const SESSION_STORAGE_KEY = 'lw-session';

interface SessionState {
  keyId: string | null;
  user: UserInfo | null;
  /** How this session signed in: what logging out undoes (unbind WeChat or DingTalk, or nothing). */
  signedInWith: SignedInWith;
  roles: readonly string[];
  /** User info, roles and routes have been loaded since this page load. */
  routesLoaded: boolean;
  signIn: (keyId: string, signedInWith?: SignedInWith) => void;
  setProfile: (user: UserInfo, roles: readonly string[], signedInWith?: SignedInWith) => void;
  clear: () => void;
}

type PersistedSession = Pick<SessionState, 'keyId' | 'user' | 'signedInWith'>;

/*
 * The spec saves the store to session storage when the page unloads and restores it on load, so
 * writes are held in memory and flushed then. In-app browsers often kill a backgrounded page
 * without pagehide, so a page becoming hidden flushes too.
 */
const unloadFlushedStorage = (): PersistStorage<PersistedSession> => {
  const pending = new Map<string, string>();
  const flush = () => {
    for (const [name, value] of pending) {
      try {
        sessionStorage.setItem(name, value);
      } catch {
        // storage full or disabled (private mode): the session just will not survive a reload
      }
    }
    pending.clear();
  };
  window.addEventListener('pagehide', flush);
  window.addEventListener('beforeunload', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  return {
    getItem: (name) => {
      try {
        const raw = sessionStorage.getItem(name);
        return raw ? (JSON.parse(raw) as StorageValue<PersistedSession>) : null;
      } catch {
        return null;
      }
    },
    setItem: (name, value) => {
      pending.set(name, JSON.stringify(value));
    },
    removeItem: (name) => {
      pending.delete(name);
      sessionStorage.removeItem(name);
    },
  };
};

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      keyId: null,
      user: null,
      signedInWith: 'password',
      roles: [],
      routesLoaded: false,
      signIn: (keyId, signedInWith = 'password') =>
        set({ keyId, signedInWith, user: null, roles: [], routesLoaded: false }),
      setProfile: (user, roles, signedInWith) =>
        set((state) => ({
          user,
          roles,
          routesLoaded: true,
          signedInWith: signedInWith ?? state.signedInWith,
        })),
      clear: () =>
        set({ keyId: null, user: null, signedInWith: 'password', roles: [], routesLoaded: false }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: 1,
      storage: unloadFlushedStorage(),
      // Roles and routes are reloaded on the first navigation of every page load.
      partialize: ({ keyId, user, signedInWith }) => ({ keyId, user, signedInWith }),
    },
  ),
);
