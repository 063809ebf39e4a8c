import { beforeEach, describe, expect, it, vi } from 'vitest';

const KEY = 'lw-session';
const load = async () => {
  vi.resetModules();
  return import('./session-store.ts');
};

describe('session store', () => {
  beforeEach(() => sessionStorage.clear());

  it('saves keyId and user to session storage when the page unloads, not before', async () => {
    const { useSession } = await load();
    useSession.getState().signIn('key-1');
    useSession.getState().setProfile({ name: '张三', nickName: '小张' }, ['center']);
    expect(sessionStorage.getItem(KEY)).toBeNull();

    window.dispatchEvent(new Event('pagehide'));

    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { state: unknown };
    expect(saved.state).toEqual({
      keyId: 'key-1',
      user: { name: '张三', nickName: '小张' },
      signedInWith: 'password',
    });
  });

  it('also saves on beforeunload', async () => {
    const { useSession } = await load();
    useSession.getState().signIn('key-2');
    window.dispatchEvent(new Event('beforeunload'));
    expect(sessionStorage.getItem(KEY)).toContain('key-2');
  });

  it('restores the saved session on load, with roles and routes to be loaded again', async () => {
    sessionStorage.setItem(
      KEY,
      JSON.stringify({
        state: { keyId: 'key-3', user: { name: '李四', nickName: '' } },
        version: 1,
      }),
    );
    const { useSession } = await load();
    const state = useSession.getState();
    expect(state.keyId).toBe('key-3');
    expect(state.user).toEqual({ name: '李四', nickName: '' });
    expect(state.routesLoaded).toBe(false);
    expect(state.roles).toEqual([]);
  });

  it('saves a cleared session so a reload stays signed out', async () => {
    sessionStorage.setItem(
      KEY,
      JSON.stringify({ state: { keyId: 'key-4', user: null }, version: 1 }),
    );
    const { useSession } = await load();
    useSession.getState().clear();
    window.dispatchEvent(new Event('pagehide'));
    const { useSession: reloaded } = await load();
    expect(reloaded.getState().keyId).toBeNull();
  });
});
