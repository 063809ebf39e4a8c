import { messages } from '@linewatch/contracts/envelope';
import { identityApi } from '@linewatch/contracts/identity-api';
import { isWeChat } from './client-env.ts';
import { paths, links } from './paths.ts';
import { currentPath, navigateTo } from './navigation.ts';
import { useSession } from './session-store.ts';
import { toastFailure } from './toast.ts';

/**
 * The server's start of WeChat authorisation, coming back to `redirect`: a page navigation (the
 * server sets the state cookie and answers 302 to WeChat), never a fetch or a router push.
 */
export const wechatAuthorizeUrl = (redirect: string): string =>
  `${identityApi.wechatAuthorize.path}?${new URLSearchParams({ redirect })}`;

/**
 * The server no longer knows this keyId (reply 0405, socket close 4405): clear it and sign in
 * again, back to where the user was — through WeChat's authorisation inside WeChat (a bound
 * account is signed in again without typing), the login page elsewhere, which says 请重新登录
 * (the toast alone was gone by the time the lazily loaded login page showed).
 */
export const expireSession = (): void => {
  useSession.getState().clear();
  toastFailure(messages.notSignedIn);
  if (window.location.pathname === paths.login) return;
  if (isWeChat()) {
    window.location.assign(wechatAuthorizeUrl(currentPath()));
    return;
  }
  navigateTo(links.loginAgain(currentPath()), { replace: true });
};
