import { describe, expect, it, vi } from 'vitest';
import { loadReloadingOnce } from './lazy-page.ts';
import { paths } from '../shared/paths.ts';

describe('page chunk loading', () => {
  it('reloads the same path once when a chunk fails, then gives up with the error', async () => {
    const reload = vi.fn();
    const failing = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const options = { pathname: paths.deviceList, storage: sessionStorage, reload };

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
    const options = { pathname: paths.center, storage: sessionStorage, reload };
    sessionStorage.setItem(`lw-chunk-reload:${paths.center}`, '1');
    await expect(loadReloadingOnce(() => Promise.resolve('page'), options)).resolves.toBe('page');
    void loadReloadingOnce(() => Promise.reject(new Error('gone')), options);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
