import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './service-worker.ts';

const container = () => {
  const register = vi.fn(() => Promise.resolve({} as ServiceWorkerRegistration));
  return { register, container: { register } as unknown as ServiceWorkerContainer };
};
const setReadyState = (state: DocumentReadyState) =>
  vi.spyOn(document, 'readyState', 'get').mockReturnValue(state);

afterEach(() => vi.restoreAllMocks());

describe('the service worker registration', () => {
  it('waits for the page’s load, then registers /sw.js for the whole app', () => {
    setReadyState('interactive');
    const { register, container: sw } = container();
    registerServiceWorker({ production: true, container: sw });
    expect(register).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers at once when the page has already loaded', () => {
    setReadyState('complete');
    const { register, container: sw } = container();
    registerServiceWorker({ production: true, container: sw });
    expect(register).toHaveBeenCalledTimes(1);
  });

  it('registers nothing on the dev server or where there are no workers', () => {
    setReadyState('complete');
    const { register, container: sw } = container();
    registerServiceWorker({ production: false, container: sw });
    expect(register).not.toHaveBeenCalled();
    expect(() => registerServiceWorker({ production: true, container: undefined })).not.toThrow();
  });
});
