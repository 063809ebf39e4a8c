import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import { useSession } from '../../shared/session-store.ts';
import { canAccess } from '../guard.ts';
import { handleOf, pageTitle } from '../route-handle.ts';
import { NotFound } from '../screens/not-found.tsx';
import { PageLoading } from '../screens/page-loading.tsx';
import { OfflineBanner } from './offline-banner.tsx';

/** Titles, scroll position, role filtering and the offline banner for every route. */
export const RootLayout = () => {
  const handles = useMatches().map(handleOf);
  const roles = useSession((state) => state.roles);
  const routesLoaded = useSession((state) => state.routesLoaded);
  const title = [...handles].reverse().find((handle) => handle.title)?.title;

  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);

  const denied = routesLoaded && handles.some((handle) => !canAccess(handle.roles, roles));
  return (
    <>
      <ScrollRestoration />
      <OfflineBanner />
      <Suspense fallback={<PageLoading />}>{denied ? <NotFound /> : <Outlet />}</Suspense>
    </>
  );
};
