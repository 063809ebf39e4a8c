import { ReplyCode } from '@linewatch/contracts/envelope';
import type { SessionInfo } from '@linewatch/contracts/identity';
import { identityApi } from '@linewatch/contracts/identity-api';
import { redirect, redirectDocument, type LoaderFunctionArgs } from 'react-router';
import { fetchProfile, restoreSession, UNREACHABLE } from '../features/identity/api.ts';
import { ApiError } from '../shared/api-client.ts';
import { isDingTalk, isWeChat } from '../shared/client-env.ts';
import { links } from '../shared/paths.ts';
import { webMessages } from '../shared/messages.ts';
import { wechatAuthorizeUrl } from '../shared/session-expired.ts';
import { useSession } from '../shared/session-store.ts';
import { toastFailure } from '../shared/toast.ts';
import { decideNavigation } from './guard.ts';
import { lastKnownOwner, restoreLastKnown, type LastKnownOwner } from './last-known.ts';
import type { QueryClient } from '@tanstack/react-query';

/** The app's query cache, which a session's last-known data is restored into (main.tsx). */
let cache: QueryClient | null = null;
export const restoreLastKnownInto = (client: QueryClient): void => {
  cache = client;
};

/**
 * Offline only: the server cannot be asked, so the session's last-known data is shown with its
 * age. Online a page asks the server as on a first load: restored data shown first and then
 * replaced would move the cards under the worker's thumb (the calibrated Lighthouse run measured
 * that shift at CLS 0.52 on /deviceList, and a second page asked for at once).
 */
const restoreCache = (keyId: string) => {
  if (cache) restoreLastKnown(cache, keyId);
};

/**
 * Offline, the profile the last-known data was shown to lets its user in: the pages show that
 * data with its age. Back online, the first answer of the server decides (0405 signs out).
 */
const signInLastKnown = ({ keyId, user, roles, signedInWith }: LastKnownOwner) => {
  const session = useSession.getState();
  if (session.keyId !== keyId) session.signIn(keyId, signedInWith);
  useSession.getState().setProfile(user, roles, signedInWith);
  restoreCache(keyId);
};

/** A failure that says nothing about the session: no answer, or none in time. */
const unanswered = (error: unknown) =>
  error instanceof ApiError && (error.code === 'network' || error.code === 'timeout');

/**
 * The reply to GET /api/session that this page's HTML preloads (vite-route-preloads.ts), taken as
 * the app starts. Only the first navigation may use it: left unused, the preloaded reply would
 * answer a later ask (logging out of a tab that had its token) with the session as it was at load.
 */
let preloadedSession: Promise<SessionInfo | null | typeof UNREACHABLE> | null =
  document.querySelector(`link[rel="preload"][href="${identityApi.session.path}"]`)
    ? restoreSession()
    : null;

/** The server was asked about the cookie once this page load (one in-flight ask is shared). */
let sessionCheck: Promise<void> | null = null;
/** That ask got no answer (offline, or a network that reaches nothing). */
let sessionUnreachable = false;

const checkSession = (ask: () => Promise<SessionInfo | null | typeof UNREACHABLE>) =>
  (sessionCheck ??= ask().then((restored) => {
    if (useSession.getState().keyId) return;
    if (restored === UNREACHABLE) {
      sessionUnreachable = true;
      // A cold start on a dead spot: whoever signed in last on this phone, offline.
      const owner = lastKnownOwner(null);
      if (owner) signInLastKnown(owner);
      return;
    }
    if (!restored) return;
    // The reply carries the profile: no user-info round trip after this one.
    const { keyId, roles, signedInWith, name, nickName } = restored;
    useSession.getState().signIn(keyId, signedInWith);
    useSession.getState().setProfile({ name, nickName }, roles, signedInWith);
  }));

/** Runs before every navigation (the root route always revalidates). */
export const guardLoader = async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
  const url = new URL(request.url);
  const preloaded = preloadedSession;
  preloadedSession = null;
  const decide = () => {
    const session = useSession.getState();
    return decideNavigation({
      pathname: url.pathname,
      search: url.search,
      hasToken: Boolean(session.keyId),
      routesLoaded: session.routesLoaded,
      isDingTalk: isDingTalk(),
      isWeChat: isWeChat(),
      sessionChecked: sessionCheck !== null,
    });
  };
  let decision = decide();
  if (decision.type === 'restore') {
    await checkSession(() => preloaded ?? restoreSession());
    decision = decide();
  }
  if (decision.type === 'redirect') return redirect(decision.to);
  if (decision.type === 'authorize') {
    // Offline, WeChat's authorisation (a page of the server's, then WeChat's) would be the
    // browser's error page: the app's own login page says the network is down instead.
    if (sessionUnreachable) return redirect(links.login(decision.redirect));
    return redirectDocument(wechatAuthorizeUrl(decision.redirect));
  }
  if (decision.type === 'load') {
    const keyId = useSession.getState().keyId;
    try {
      const { user, roles, signedInWith } = await fetchProfile();
      useSession.getState().setProfile(user, roles, signedInWith);
    } catch (error) {
      // A reload offline: this session's last-known profile and data, if the phone kept them.
      const owner = unanswered(error) && keyId ? lastKnownOwner(keyId) : null;
      if (owner) {
        signInLastKnown(owner);
        return null;
      }
      if (error instanceof ApiError && error.code === ReplyCode.notSignedIn) {
        // The api client cleared the session; inside WeChat it is leaving for authorisation
        // (a document navigation): render nothing meanwhile.
        if (isWeChat()) return new Promise<never>(() => {});
        return redirect(links.loginAgain(url.pathname + url.search));
      }
      // The menu could not be loaded, or nothing answered (docs/product.md section 8): sign in again.
      useSession.getState().clear();
      toastFailure(webMessages.reLogin);
      return redirect(links.loginAgain(url.pathname + url.search));
    }
  }
  return null;
};
