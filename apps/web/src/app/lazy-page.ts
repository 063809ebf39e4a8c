import { isValidElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

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

/** A lazily loaded page or layout whose chunk can be fetched before it renders. */
type LazyPage<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  preload: () => Promise<unknown>;
};

export const lazyPage = <P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyPage<P> => {
  let loading: ReturnType<typeof load> | null = null;
  const start = () =>
    (loading ??= loadReloadingOnce(load, {
      pathname: window.location.pathname,
      storage: sessionStorage,
      reload: () => window.location.reload(),
    }));
  return Object.assign(lazy(start), { preload: start });
};

const isLazyPage = (type: unknown): type is LazyPage<object> =>
  typeof type === 'object' && type !== null && 'preload' in type;

/**
 * Starts fetching the chunks of every layout and page the location matches, so they download
 * beside the session check instead of after it (and a page's after its layout's).
 */
export const preloadMatchedPages = (routes: RouteObject[], location: string): void => {
  for (const { route } of matchRoutes(routes, location) ?? []) {
    if (isValidElement(route.element) && isLazyPage(route.element.type)) {
      void route.element.type.preload();
    }
  }
};
