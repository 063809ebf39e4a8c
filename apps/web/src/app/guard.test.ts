import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE, GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import { canAccess, decideNavigation, type NavigationRequest } from './guard.ts';
import { links, paths } from '../shared/paths.ts';

const request = (overrides: Partial<NavigationRequest>): NavigationRequest => ({
  pathname: paths.deviceList,
  search: '',
  hasToken: false,
  routesLoaded: false,
  isDingTalk: false,
  isWeChat: false,
  sessionChecked: true,
  ...overrides,
});

const redirectOf = (decision: ReturnType<typeof decideNavigation>) => {
  if (decision.type !== 'redirect') throw new Error(`expected a redirect, got ${decision.type}`);
  const url = new URL(decision.to, 'http://app.test');
  return { pathname: url.pathname, params: Object.fromEntries(url.searchParams) };
};

describe('navigation guard', () => {
  it('asks the server for the session before sending a tab without a token to sign in', () => {
    // A new webview (WeChat menu tap) has an empty sessionStorage but a valid cookie.
    expect(decideNavigation(request({ sessionChecked: false }))).toEqual({ type: 'restore' });
    expect(decideNavigation(request({ pathname: paths.login, sessionChecked: false }))).toEqual({
      type: 'restore',
    });
    expect(
      decideNavigation(request({ pathname: paths.faultAlarm, sessionChecked: false })),
    ).toEqual({
      type: 'allow',
    });
    expect(decideNavigation(request({ hasToken: true, sessionChecked: false }))).toEqual({
      type: 'load',
    });
    expect(redirectOf(decideNavigation(request({ sessionChecked: true }))).pathname).toBe(
      paths.login,
    );
  });

  it('sends a signed-in user away from the login page to the home page', () => {
    expect(decideNavigation(request({ pathname: paths.login, hasToken: true }))).toEqual({
      type: 'redirect',
      to: paths.home,
    });
  });

  it('loads user info, roles and routes on the first navigation with a token', () => {
    expect(decideNavigation(request({ hasToken: true }))).toEqual({ type: 'load' });
    expect(decideNavigation(request({ hasToken: true, routesLoaded: true }))).toEqual({
      type: 'allow',
    });
  });

  it('lets a signed-in user open a public page without loading anything', () => {
    expect(decideNavigation(request({ pathname: paths.faultAlarm, hasToken: true }))).toEqual({
      type: 'allow',
    });
  });

  it.each([paths.login, paths.userApply, paths.userAudit, paths.faultAlarm, paths.refresh])(
    'lets anyone open %s',
    (pathname) => {
      expect(decideNavigation(request({ pathname }))).toEqual({ type: 'allow' });
    },
  );

  it('sends a visitor without a token to /login with the page to come back to', () => {
    const target = redirectOf(
      decideNavigation(request({ pathname: paths.currentDataReport, search: '?snCode=SN-1' })),
    );
    expect(target).toEqual({
      pathname: paths.login,
      params: { redirect: links.currentDataReport('SN-1') },
    });
  });

  it('passes an OAuth code on to /login next to the redirect', () => {
    const target = redirectOf(
      decideNavigation(request({ pathname: paths.threeParam, search: '?snCode=SN-1&code=abc' })),
    );
    expect(target).toEqual({
      pathname: paths.login,
      params: { redirect: `${paths.threeParam}?snCode=SN-1`, code: 'abc' },
    });
  });

  it('passes the OAuth state on with the code, never without one', () => {
    expect(
      redirectOf(
        decideNavigation(request({ pathname: paths.deviceList, search: '?code=abc&state=s1' })),
      ).params,
    ).toEqual({ redirect: paths.deviceList, code: 'abc', state: 's1' });
    expect(
      redirectOf(decideNavigation(request({ pathname: paths.deviceList, search: '?state=s1' })))
        .params,
    ).toEqual({ redirect: paths.deviceList });
  });

  it("sends a WeChat visitor without a token to WeChat's authorisation, back to the page", () => {
    expect(
      decideNavigation(
        request({ pathname: paths.currentDataReport, search: '?snCode=SN-1', isWeChat: true }),
      ),
    ).toEqual({ type: 'authorize', redirect: links.currentDataReport('SN-1') });
    // Back with a code already: to the login page, which exchanges it (no second round trip).
    expect(
      redirectOf(
        decideNavigation(
          request({ pathname: paths.deviceList, search: '?code=abc&state=s1', isWeChat: true }),
        ),
      ),
    ).toEqual({
      pathname: paths.login,
      params: { redirect: paths.deviceList, code: 'abc', state: 's1' },
    });
    // The login page itself and public pages are opened as they are.
    expect(decideNavigation(request({ pathname: paths.login, isWeChat: true }))).toEqual({
      type: 'allow',
    });
    expect(decideNavigation(request({ pathname: paths.userApply, isWeChat: true }))).toEqual({
      type: 'allow',
    });
  });

  it('keeps only the redirect for a DingTalk user', () => {
    const target = redirectOf(
      decideNavigation(
        request({ pathname: paths.threeParam, search: '?code=abc', isDingTalk: true }),
      ),
    );
    expect(target).toEqual({ pathname: paths.login, params: { redirect: paths.threeParam } });
  });

  it('guards unknown paths like any other private page', () => {
    expect(redirectOf(decideNavigation(request({ pathname: '/nowhere' }))).params.redirect).toBe(
      '/nowhere',
    );
  });
});

describe('route roles', () => {
  it('allows routes without roles and routes naming a granted role', () => {
    expect(canAccess(undefined, [])).toBe(true);
    expect(canAccess(['map'], GRANTED_ROLES)).toBe(true);
  });

  it('refuses a route whose roles were not granted', () => {
    expect(canAccess([ADMIN_ROLE], GRANTED_ROLES)).toBe(false);
    expect(canAccess([ADMIN_ROLE], [...GRANTED_ROLES, ADMIN_ROLE])).toBe(true);
  });
});
