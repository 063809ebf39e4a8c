import { isValidElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { isOffline, useConnectivity } from '../shared/connectivity.ts';

interface ReloadOnce {
  pathname: string;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
  /** No network or no server: a reload would replace the app with the browser's error page. */
  offline: () => boolean;
}

/** A page's chunk that could not be fetched because the network is gone (RouteError says so). */
export class ChunkOfflineError extends Error {
  constructor(override readonly cause: unknown) {
    super('page chunk not loaded: offline');
    this.name = 'ChunkOfflineError';
  }
}

/**
 * Loads a page chunk. One that fails (usually a deploy replaced it) reloads the same path once;
 * a flag in session storage stops a reload loop when the chunk is really gone. Offline it does
 * not reload (the browser would show its own offline page instead of the app): it fails with a
 * ChunkOfflineError, which the route's error screen shows as an in-app offline notice.
 */
export const loadReloadingOnce = async <T>(
  load: () => Promise<T>,
  { pathname, storage, reload, offline }: ReloadOnce,
) => {
  const flag = `lw-chunk-reload:${pathname}`;
  try {
    const module = await load();
    storage.removeItem(flag);
    return module;
  } catch (error) {
    if (offline()) throw new ChunkOfflineError(error);
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
      offline: () => isOffline(useConnectivity.getState()),
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
