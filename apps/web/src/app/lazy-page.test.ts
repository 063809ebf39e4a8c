import { describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import {
  ChunkOfflineError,
  lazyPage,
  loadReloadingOnce,
  preloadMatchedPages,
} from './lazy-page.ts';
import { paths } from '../shared/paths.ts';

describe('page chunk loading', () => {
  it('reloads the same path once when a chunk fails, then gives up with the error', async () => {
    const reload = vi.fn();
    const failing = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const options = {
      pathname: paths.deviceList,
      storage: sessionStorage,
      reload,
      offline: () => false,
    };

    let settled = false;
    void loadReloadingOnce(failing, options).finally(() => (settled = true));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(settled).toBe(false);

    // after the reload the chunk fails again: show the error instead of looping
    await expect(loadReloadingOnce(failing, options)).rejects.toThrow('Failed to fetch');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('clears the flag once the chunk loads, so a later failure may reload again', async () => {
    const reload = vi.fn();
    const options = {
      pathname: paths.center,
      storage: sessionStorage,
      reload,
      offline: () => false,
    };
    sessionStorage.setItem(`lw-chunk-reload:${paths.center}`, '1');
    await expect(loadReloadingOnce(() => Promise.resolve('page'), options)).resolves.toBe('page');
    void loadReloadingOnce(() => Promise.reject(new Error('gone')), options);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('offline, never reloads (the browser’s error page would replace the app): it says so', async () => {
    const reload = vi.fn();
    const options = { pathname: paths.map, storage: sessionStorage, reload, offline: () => true };
    const failing = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    await expect(loadReloadingOnce(failing, options)).rejects.toBeInstanceOf(ChunkOfflineError);
    expect(reload).not.toHaveBeenCalled();
    // Nothing spent: back online, a failure may still reload once.
    expect(sessionStorage.getItem(`lw-chunk-reload:${paths.map}`)).toBeNull();
  });

  it('fetches the chunks of the layout and the page a location matches, each once', async () => {
    const page = () => () => null;
    const loadLayout = vi.fn(() => Promise.resolve({ default: page() }));
    const loadList = vi.fn(() => Promise.resolve({ default: page() }));
    const loadMap = vi.fn(() => Promise.resolve({ default: page() }));
    const Layout = lazyPage(loadLayout);
    const routes = [
      {
        element: createElement(Layout),
        children: [
          { path: paths.deviceList, element: createElement(lazyPage(loadList)) },
          { path: paths.map, element: createElement(lazyPage(loadMap)) },
        ],
      },
    ];
    preloadMatchedPages(routes, paths.deviceList);
    expect(loadLayout).toHaveBeenCalledTimes(1);
    expect(loadList).toHaveBeenCalledTimes(1);
    expect(loadMap).not.toHaveBeenCalled();
    // rendering later, or preloading again, reuses the same load
    await Layout.preload();
    expect(loadLayout).toHaveBeenCalledTimes(1);
  });
});
