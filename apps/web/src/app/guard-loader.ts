import { ReplyCode } from '@linewatch/contracts/envelope';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { fetchUserInfo } from '../features/identity/api.ts';
import { ApiError } from '../shared/api-client.ts';
import { isDingTalk } from '../shared/client-env.ts';
import { loginUrl } from '../shared/login-url.ts';
import { webMessages } from '../shared/messages.ts';
import { useSession } from '../shared/session-store.ts';
import { toastFailure } from '../shared/toast.ts';
import { decideNavigation, GRANTED_ROLES } from './guard.ts';

/** Runs before every navigation (the root route always revalidates). */
export const guardLoader = async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
  const url = new URL(request.url);
  const session = useSession.getState();
  const decision = decideNavigation({
    pathname: url.pathname,
    search: url.search,
    hasToken: Boolean(session.keyId),
    routesLoaded: session.routesLoaded,
    isDingTalk: isDingTalk(),
  });
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
      return redirect(loginUrl(url.pathname + url.search));
    }
  }
  return null;
};
