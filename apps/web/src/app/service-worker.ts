/**
 * Registers the service worker (src/sw/sw.ts) once the page has loaded, so its fetch of every
 * page's code at install never competes with the first screen's own requests. Only in a build:
 * the dev server has no sw.js.
 */
export const registerServiceWorker = ({
  production,
  container,
}: {
  production: boolean;
  container: ServiceWorkerContainer | undefined;
}): void => {
  if (!production || !container) return;
  const register = () => {
    // No worker (a webview without them, a private window): the app works online as before.
    container.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
};
