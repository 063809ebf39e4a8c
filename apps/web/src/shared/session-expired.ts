import { messages } from '@linewatch/contracts/envelope';
import { paths, links } from './paths.ts';
import { currentPath, navigateTo } from './navigation.ts';
import { useSession } from './session-store.ts';
import { toastFailure } from './toast.ts';

/** The server no longer knows this keyId (reply 0405, socket close 4405): sign in again. */
export const expireSession = (): void => {
  useSession.getState().clear();
  toastFailure(messages.notSignedIn);
  if (window.location.pathname === paths.login) return;
  navigateTo(links.login(currentPath()), { replace: true });
};
