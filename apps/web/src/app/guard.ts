import { paths, links } from '../shared/paths.ts';

/** Paths anyone may open (docs/product.md section 2). */
const PUBLIC_PATHS: readonly string[] = [
  paths.login,
  paths.userApply,
  paths.userAudit,
  paths.faultAlarm,
  paths.refresh,
];

export interface NavigationRequest {
  pathname: string;
  search: string;
  hasToken: boolean;
  /** User info, roles and routes were loaded since this page load. */
  routesLoaded: boolean;
  /** DingTalk users sign in without the messaging app's OAuth code. */
  isDingTalk: boolean;
  /** Inside WeChat a visitor without a token goes through WeChat's authorisation first. */
  isWeChat: boolean;
  /** The server was asked this page load whether the (HttpOnly) cookie names a session. */
  sessionChecked: boolean;
}

export type GuardDecision =
  | { type: 'allow' }
  | { type: 'load' }
  /** No token in this tab: ask the server who the cookie is before sending anyone to sign in. */
  | { type: 'restore' }
  /** Inside WeChat: to WeChat's authorisation (snsapi_base), which returns to /login with a code. */
  | { type: 'authorize'; redirect: string }
  | { type: 'redirect'; to: string };

const isPublicPath = (pathname: string): boolean => PUBLIC_PATHS.includes(pathname);

/**
 * Whether a tab without a token asks the server (GET /api/session) who the cookie is before this
 * path renders: every path but the public ones, and /login. Each such page's HTML preloads that
 * reply (vite-route-preloads.ts), so it downloads beside the scripts.
 */
export const asksForSession = (pathname: string): boolean =>
  !isPublicPath(pathname) || pathname === paths.login;

/** The navigation guard of docs/product.md section 2, free of routers and storage so it can be tested alone. */
export const decideNavigation = (request: NavigationRequest): GuardDecision => {
  const { pathname, search, hasToken, routesLoaded, isDingTalk, isWeChat, sessionChecked } =
    request;
  if (hasToken) {
    if (pathname === paths.login) return { type: 'redirect', to: paths.home };
    // A stale token must not lock anyone out of a public page (a fault alarm opened from a message).
    if (isPublicPath(pathname) || routesLoaded) return { type: 'allow' };
    return { type: 'load' };
  }
  // A fault alarm opened from a message must not wait; /login is asked too, so a new webview
  // opened on it with a live cookie goes straight in.
  if (!asksForSession(pathname)) return { type: 'allow' };
  if (!sessionChecked) return { type: 'restore' };
  if (pathname === paths.login) return { type: 'allow' };
  const query = new URLSearchParams(search);
  const code = query.get('code');
  const state = query.get('state');
  query.delete('code');
  query.delete('state');
  const rest = query.toString();
  const redirect = rest ? `${pathname}?${rest}` : pathname;
  if (isDingTalk) return { type: 'redirect', to: links.login(redirect) };
  // Back from authorisation already (a code): the login page exchanges it, no second round.
  if (isWeChat && !code) return { type: 'authorize', redirect };
  return { type: 'redirect', to: links.login(redirect, code, code ? state : null) };
};

/** Route role filtering: a route naming roles needs one of them. */
export const canAccess = (
  required: readonly string[] | undefined,
  granted: readonly string[],
): boolean => !required || required.length === 0 || required.some((role) => granted.includes(role));
