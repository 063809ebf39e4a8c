/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  getCacheKeyForURL,
  matchPrecache,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NOT_A_PAGE, shellFor } from './shell.ts';

/*
 * The app's service worker (docs/architecture.md, "Offline"): the app shell and every page's code
 * precached at install, so a screen opens with no network; the API and the sockets are never
 * cached here (the last-known data the pages show is the app's own, with its age).
 */
declare const self: ServiceWorkerGlobalScope;

// The list vite-plugin-pwa writes in at build time: hashed chunks, index.html, the route shells.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new build takes over at once: its shells name only its own chunks, all precached with it.
void self.skipWaiting();
clientsClaim();

const has = (file: string) => getCacheKeyForURL(`/${file}`) !== undefined;

/*
 * A page navigation gets its precached shell, as the server would pick it (the route's own copy or
 * index.html), network or not: the shell is what the running build needs, and its data comes from
 * the API.
 */
registerRoute(
  new NavigationRoute(
    async ({ url, request }) =>
      (await matchPrecache(`/${shellFor(url.pathname, has)}`)) ?? fetch(request),
    { denylist: [NOT_A_PAGE] },
  ),
);
