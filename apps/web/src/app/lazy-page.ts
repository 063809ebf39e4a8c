import { lazy, type ComponentType } from 'react';

interface ReloadOnce {
  pathname: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
}

/**
 * Loads a page chunk. One that fails (usually a deploy replaced it) reloads the same path once;
 * a flag in session storage stops a reload loop when the chunk is really gone.
 */
export const loadReloadingOnce = async <T>(
  load: () => Promise<T>,
  { pathname, storage, reload }: ReloadOnce,
) => {
  const flag = `lw-chunk-reload:${pathname}`;
  try {
    const module = await load();
    storage.removeItem(flag);
    return module;
  } catch (error) {
    if (storage.getItem(flag) !== null) throw error;
    storage.setItem(flag, '1');
    reload();
    return new Promise<never>(() => {});
  }
};

export const lazyPage = <P extends object>(load: () => Promise<{ default: ComponentType<P> }>) =>
  lazy(() =>
    loadReloadingOnce(load, {
      pathname: window.location.pathname,
      storage: sessionStorage,
      reload: () => window.location.reload(),
    }),
  );
