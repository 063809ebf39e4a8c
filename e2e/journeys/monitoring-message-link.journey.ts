import { describe, expect, inject, it } from 'vitest';
import { DeviceHistoryPage } from '../pages/device-history.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { IN_APP_USER_AGENTS } from '../support/browser.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';
import { daysAgo } from '../support/factory-day.ts';

/**
 * /threeParam is the device history a message opens, with a login query code (docs/product.md section 2):
 * tapped inside WeChat with no session, the link goes through WeChat's authorisation and comes
 * back to the login page with ?code (the guard passes it on next to the redirect); the code names
 * a WeChat user not yet bound, so the form asks for the account, and signing in lands on the
 * history the message named.
 */
const FAULTY = 'LW-S1-002';

describe('monitoring: an engineer opens a machine’s history from a WeChat message', () => {
  const journey = useJourney('monitoring-message-link', { userAgent: IN_APP_USER_AGENTS.wechat });
  const history = `${links.machine(paths.threeParam, FAULTY)}`;
  /** Every address the phone was sent to, in order (the code is dropped from the bar once spent). */
  const visited: string[] = [];

  it('taps the link with no session: back from WeChat with a code, asked to sign in', async () => {
    const { page } = journey;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(currentPath(page));
    });
    await fetch(`${inject('wechatFakeUrl')}/__fake/user`, {
      method: 'POST',
      body: JSON.stringify({ openid: `o-message-${Date.now().toString(36)}` }),
    });
    await new DeviceHistoryPage(page).followMessageLink(FAULTY);
    const login = new LoginPage(page);
    await login.waitForForm();
    await expect.poll(() => login.binds()).toBe(true);
    // The login page was opened with the code, next to the redirect back to /threeParam.
    const withCode = visited
      .map((address) => new URL(address, 'http://phone'))
      .find((url) => url.pathname === paths.login && url.searchParams.has('code'));
    expect(withCode?.searchParams.get('redirect')).toBe(history);
    // Spent, the code leaves the address: a reload must not send it again.
    expect(currentPath(page)).toBe(links.login(history));
    await journey.shot(page, 'login-with-code');
  });

  it('signs in and lands on the history of that machine, titled with its name and SN', async () => {
    const { page } = journey;
    const login = new LoginPage(page);
    await login.signIn('operator', 'Operator@2026');
    const screen = new DeviceHistoryPage(page);
    await screen.waitUntilShown();
    expect(currentPath(page)).toBe(history);
    await expect.poll(() => screen.titleText()).toMatch(new RegExp(`^\\S.*（${FAULTY}）$`));
    await expect.poll(() => page.title()).toMatch(/^历史数据 - /);
    expect(await screen.dayShown()).toBe(daysAgo(1));
    await screen.waitForChart(screen.paramChart);
    await login.toast.waitUntilGone();
    await journey.shot(page, 'three-param-history');
  });
});
