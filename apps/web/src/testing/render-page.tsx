import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import { createQueryClient, Providers } from '../app/providers.tsx';
import { routes } from '../app/routes.tsx';
import { setNavigator } from '../shared/navigation.ts';
import { useSession } from '../shared/session-store.ts';
import { buildUserInfo } from './builders.ts';
import { fakeApi, type FakeApi } from './fake-api.ts';

interface RenderPageOptions {
  /** The server, faked per endpoint; fetch is stubbed with it for this test. */
  api?: FakeApi;
  /** Signed in with user info and roles loaded (the guard lets the page through), by default. */
  signedIn?: boolean;
}

/**
 * Renders the app as main.tsx does — the real routes, guard, layouts and providers — at a path
 * built with shared/paths.ts. Returns the router (where the app went) and a user-event session.
 */
export const renderPage = (
  path: string,
  { api = fakeApi(), signedIn = true }: RenderPageOptions = {},
) => {
  vi.stubGlobal('fetch', api.fetch);
  // The router restores scroll positions; jsdom has no scrolling.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  if (signedIn) {
    useSession.getState().signIn('test-key-id');
    useSession.getState().setProfile(buildUserInfo(), GRANTED_ROLES);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setNavigator((to, options) => void router.navigate(to, options));
  const client = createQueryClient();
  onTestFinished(() => {
    router.dispose();
    client.clear();
    useSession.getState().clear();
    vi.unstubAllGlobals();
    vi.mocked(window.scrollTo).mockRestore();
  });
  render(
    <Providers client={client}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, client, api, user: userEvent.setup() };
};
