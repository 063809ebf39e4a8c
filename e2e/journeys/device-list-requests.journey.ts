import { devicesApi } from '@linewatch/contracts/devices-api';
import { identityApi } from '@linewatch/contracts/identity-api';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DeviceListPage } from '../pages/device-list.page.ts';
import { LoginPage } from '../pages/login.page.ts';
import { OfflinePhone } from '../pages/offline.page.ts';
import { paths } from '../support/app-paths.ts';
import { IN_APP_USER_AGENTS } from '../support/browser.ts';
import { useJourney } from '../support/journey.ts';
import { currentPath } from '../support/location.ts';

const LIST_PATH = devicesApi.machineList.path;
const SMT = 'SMT一线';

/**
 * Issue 25: the review saw the device list ask for its first page twice on every load. Counted
 * here inside WeChat (its user agent), on each way a load comes: a cold start with the session's
 * cookie only (the guard asks the server), a reload with the tab's session (the guard loads the
 * profile), and a reload through the installed service worker with the last-known data kept.
 * Every request of the phone's context is counted, a service worker's too.
 */
describe('device list: its first page asked once per load', () => {
  const journey = useJourney('device-list-requests', { userAgent: IN_APP_USER_AGENTS.wechat });

  /** Loads the list by `load` and gives every page of the unfolded line it asked for. */
  const pagesAskedBy = async (page: Page, load: () => Promise<unknown>) => {
    const asked: string[] = [];
    const count = (request: Request) => {
      const url = new URL(request.url());
      // Every page: a list refreshed at load asks for each page it holds (the calibrated
      // Lighthouse run saw a reload ask for page 2 too, the cards shifting as it came).
      if (url.pathname === LIST_PATH)
        asked.push(`${request.serviceWorker() ? 'sw ' : ''}${url.search}`);
    };
    page.context().on('request', count);
    try {
      await load();
      const list = new DeviceListPage(page);
      await list.waitUntilLoaded();
      expect(currentPath(page)).toBe(paths.deviceList);
      await expect.poll(() => list.groupListState(SMT)).toBe('more');
      // Anything a late effect would ask for again has been asked by now.
      await page.waitForTimeout(1_500);
    } finally {
      page.context().off('request', count);
    }
    return asked;
  };

  it('a cold start with the session’s cookie only: one first page', async () => {
    const { page } = journey;
    // Signed in as the login page signs in (the cookie lands in the phone's context).
    const reply = await page.context().request.post(identityApi.wechatBindUser.path, {
      data: { psnCode: 'operator', passWord: encryptPassword('Operator@2026') },
    });
    expect(reply.ok()).toBe(true);
    const asked = await pagesAskedBy(page, () => page.goto(paths.deviceList));
    expect(asked).toHaveLength(1);
    await journey.shot(page, 'cold-start');
  });

  it('a reload with the tab’s session, the service worker installed: one first page', async () => {
    const { page } = journey;
    await new OfflinePhone(page).waitUntilInstalled();
    const asked = await pagesAskedBy(page, () => page.reload());
    expect(asked).toHaveLength(1);
    // And again, the last-known data now kept: online it is not restored (the server answers),
    // so the reload asks for the first page only, as a first load does.
    expect(await pagesAskedBy(page, () => page.reload())).toHaveLength(1);
    await journey.shot(page, 'reloaded');
  });

  it('signed out, a cold start offline inside WeChat is the app’s login page, not an error page', async () => {
    const { page } = journey;
    await page.context().request.post(identityApi.signOut.path);
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    const phone = new OfflinePhone(page);
    await phone.goOffline();
    const cold = await page.context().newPage();
    try {
      await cold.goto(paths.deviceList);
      await new LoginPage(cold).root.waitFor();
      expect(await new OfflinePhone(cold).showsBrowserErrorPage()).toBe(false);
      expect(currentPath(cold)).toMatch(/^\/login/);
      await journey.shot(cold, 'cold-start-offline-signed-out');
    } finally {
      await cold.close();
      await phone.goOnline();
    }
  });
});
