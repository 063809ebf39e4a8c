import { ReplyCode } from '@linewatch/contracts/envelope';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { fetchUserInfo, restoreSession } from '../features/identity/api.ts';
import { ApiError } from '../shared/api-client.ts';
import { isDingTalk } from '../shared/client-env.ts';
import { links } from '../shared/paths.ts';
import { webMessages } from '../shared/messages.ts';
import { useSession } from '../shared/session-store.ts';
import { toastFailure } from '../shared/toast.ts';
import { decideNavigation, GRANTED_ROLES } from './guard.ts';

/** The server was asked about the cookie once this page load (one in-flight ask is shared). */
let sessionCheck: Promise<void> | null = null;

const checkSession = () =>
  (sessionCheck ??= restoreSession().then((restored) => {
    if (!restored || useSession.getState().keyId) return;
    const { keyId, ...user } = restored;
    useSession.getState().signIn(keyId);
    useSession.getState().setProfile(user, GRANTED_ROLES);
  }));

/** Runs before every navigation (the root route always revalidates). */
export const guardLoader = async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
  const url = new URL(request.url);
  const decide = () => {
    const session = useSession.getState();
    return decideNavigation({
      pathname: url.pathname,
      search: url.search,
      hasToken: Boolean(session.keyId),
      routesLoaded: session.routesLoaded,
      isDingTalk: isDingTalk(),
      sessionChecked: sessionCheck !== null,
    });
  };
  let decision = decide();
  if (decision.type === 'restore') {
    await checkSession();
    decision = decide();
  }
  if (decision.type === 'redirect') return redirect(decision.to);
  if (decision.type === 'load') {
    try {
      useSession.getState().setProfile(await fetchUserInfo(), GRANTED_ROLES);
    } catch (error) {
      // 0405 was already handled (session cleared, toast shown) by the api client.
      if (!(error instanceof ApiError && error.code === ReplyCode.notSignedIn)) {
        useSession.getState().clear();
        toastFailure(webMessages.reLogin);
      }
      return redirect(links.login(url.pathname + url.search));
    }
  }
  return null;
};
