import { describe, expect, it } from 'vitest';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';
import { links, paths } from '../support/app-paths.ts';

describe('identity: someone who is not signed in tries the app', () => {
  const journey = useJourney('identity');

  it('opens the device list from a bookmark and is sent to sign in first', async () => {
    const { page } = journey;
    await page.goto(paths.deviceList);
    await new LoginPage(page).waitUntilShown();
    expect(currentPath(page)).toBe(links.login(paths.deviceList));
    await journey.shot(page, 'redirected-to-login');
  });

  it('taps 登录 with nothing filled in and is told both fields are required', async () => {
    const login = new LoginPage(journey.page);
    await login.submit();
    await expect.poll(() => login.usernameError.textContent()).toBe('用户名不能为空');
    await expect.poll(() => login.passwordError.textContent()).toBe('密码不能为空');
    expect(await login.usernameError.isVisible()).toBe(true);
    expect(await login.passwordError.isVisible()).toBe(true);
    expect(currentPath(journey.page)).toBe(links.login(paths.deviceList));
    await journey.shot(journey.page, 'empty-form');
  });

  it('types a password and peeks at it with the eye', async () => {
    const login = new LoginPage(journey.page);
    await login.fill('operator', 'not-the-password');
    // The messages go as soon as the fields are corrected.
    await expect.poll(() => login.usernameError.textContent()).toBe('');
    await expect.poll(() => login.passwordError.textContent()).toBe('');
    expect(await login.passwordInputType()).toBe('password');
    await login.togglePasswordVisibility();
    await expect.poll(() => login.passwordInputType()).toBe('text');
    await journey.shot(journey.page, 'password-shown');
    await login.togglePasswordVisibility();
    await expect.poll(() => login.passwordInputType()).toBe('password');
  });

  it('signs in with a wrong password, is refused with a toast and stays on the login page', async () => {
    const login = new LoginPage(journey.page);
    await login.submit();
    await login.toast.waitForText('用户名或密码错误');
    await login.toast.waitUntilShown();
    expect(currentPath(journey.page)).toBe(links.login(paths.deviceList));
    await journey.shot(journey.page, 'wrong-password');
    await login.toast.waitUntilGone();
  });

  it('signs in with the right password and lands where the bookmark pointed', async () => {
    const login = new LoginPage(journey.page);
    await login.signIn('operator', 'Operator@2026');
    const list = new DeviceListPage(journey.page);
    await list.waitUntilLoaded();
    expect(currentPath(journey.page)).toBe(paths.deviceList);
    await login.toast.waitUntilGone();
    await journey.shot(journey.page, 'signed-in');
  });

  it('opens the app again in a new tab (a WeChat menu tap) and is still signed in', async () => {
    // A new tab starts with empty sessionStorage; only the HttpOnly cookie carries the session.
    const tab = await journey.page.context().newPage();
    try {
      await tab.goto(paths.deviceList);
      const list = new DeviceListPage(tab);
      await list.waitUntilLoaded();
      expect(currentPath(tab)).toBe(paths.deviceList);
      await journey.shot(tab, 'restored-session');
    } finally {
      await tab.close();
    }
  });
});
