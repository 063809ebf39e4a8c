import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import './app/global.css';
import { restoreLastKnownInto } from './app/guard-loader.ts';
import { keepLastKnown } from './app/last-known.ts';
import { createQueryClient, forgetOnSignOut, Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { registerServiceWorker } from './app/service-worker.ts';
import { rememberLoadedUrl } from './shared/client-env.ts';
import { setNavigator } from './shared/navigation.ts';

// Before the router moves it: DingTalk signs pages as it loaded them.
rememberLoadedUrl();
const router = createBrowserRouter(routes);
setNavigator((to, options) => void router.navigate(to, options));

const client = createQueryClient();
forgetOnSignOut(client);
// The last-known data survives a reload or a killed webview, for offline (app/last-known.ts).
keepLastKnown(client);
restoreLastKnownInto(client);

const root = document.getElementById('root');
if (root) {
  // As a transition, the first render is cut into 5 ms slices the browser can paint and take a tap
  // between, instead of one long task; the shell's loading markup stays on screen meanwhile.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <Providers client={client}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    ),
  );
}

registerServiceWorker({
  production: import.meta.env.PROD,
  container: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
});
