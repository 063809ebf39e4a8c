import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { links, paths } from '../shared/paths.ts';
import { parentPath } from '../shared/use-go-back.ts';
import { renderPage } from '../testing/render-page.tsx';
import type { RouteHandle } from './route-handle.ts';
import { routes } from './routes.tsx';

const flatten = (list: readonly RouteObject[]): RouteObject[] =>
  list.flatMap((route) => [route, ...flatten(route.children ?? [])]);

/** Where a route's back arrow goes with no history in the app, as the route table says. */
const parentOf = (url: string): string => {
  const [path, search = ''] = url.split('?');
  const route = flatten(routes).find((r) => r.path === path);
  if (!route) throw new Error(`no route ${path}`);
  return parentPath((route.handle as RouteHandle | undefined)?.parent, search);
};

/** The arrow a finger taps (antd-mobile's click is on the arrow, not on its nameless button). */
const backArrow = () => screen.findByRole('img', { name: '返回' }, { timeout: 5000 });

describe('back with no history goes to the page’s parent in the app', () => {
  it.each([
    [links.report('LW-S1-005', 'date', '2026-11-22'), links.currentDataReport('LW-S1-005')],
    [links.report('LW-S1-001,LW-S1-002', 'week'), paths.center],
    [paths.report, paths.center],
    [links.followSetting(['LW-S1-005']), paths.subscription],
    [paths.subscription, paths.set],
    [paths.faca, paths.center],
    [paths.facaTask, paths.center],
    [links.facaEditFaca(7), paths.faca],
    [links.facaEditFaOrCa(7, 'CA', 3), links.facaEditFaca(7)],
    [links.facaEditTask(7, 3, 4), paths.facaTask],
    [paths.bindDevice, paths.center],
    [paths.unboundDevice, paths.center],
    [paths.set, paths.center],
    [paths.messages, paths.center],
    [paths.deviceStatistics, paths.deviceList],
  ])('%s → %s', (url, parent) => {
    expect(parentOf(url)).toBe(parent);
  });

  it('opened from a message, /messages’ back arrow goes to 个人中心, not out of the app', async () => {
    const { router, user } = renderPage(paths.messages);
    const back = await backArrow();
    await user.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe(paths.center));
  });

  it('opened from a report message, /report’s back arrow goes to the machine’s page', async () => {
    const { router, user } = renderPage(links.report('LW-S1-005', 'date', '2026-11-22'));
    const back = await backArrow();
    await user.click(back);
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        links.currentDataReport('LW-S1-005'),
      ),
    );
  });
});
