import { describe, expect, it } from 'vitest';
import { paths } from './src/shared/paths.ts';
import { identityApi } from '@linewatch/contracts/identity-api';
import { pageHtmlFile } from './src/sw/shell.ts';
import { pageShell, readRouteModules, SESSION_PATH } from './vite-route-preloads.ts';

// import.meta.url is not a file: URL under jsdom; vitest gives the directory.
const webRoot = `${import.meta.dirname}/`;
const routes = readRouteModules(webRoot);
const modulesOf = (path: string) =>
  routes
    .find((route) => route.path === path)
    ?.modules.map((module) => module.slice(webRoot.length));

describe("the routes whose app shell preloads the page's chunks", () => {
  it('reads each route with the lazy layouts around its page, outermost first', () => {
    expect(modulesOf(paths.deviceList)).toEqual([
      'src/app/layouts/tab-layout.tsx',
      'src/features/devices/pages/device-list-page.tsx',
    ]);
    expect(modulesOf(paths.threeParam)).toEqual([
      'src/app/layouts/device-layout.tsx',
      'src/features/history/pages/device-history-page.tsx',
    ]);
    expect(modulesOf(paths.adminUsers)).toEqual([
      'src/features/admin/components/admin-gate.tsx',
      'src/features/admin/pages/users-page.tsx',
    ]);
    expect(modulesOf(paths.login)).toEqual(['src/features/identity/pages/login-page.tsx']);
  });

  it('covers every path of paths.ts that renders a lazy page', () => {
    // Home redirects and /refresh renders a small eager screen: nothing to preload.
    const unrouted = Object.values(paths).filter((path) => !modulesOf(path));
    expect(unrouted.sort()).toEqual([paths.home, paths.refresh].sort());
  });

  it('names a file under pages/ after the route', () => {
    expect(pageHtmlFile('/faca/addQuestion')).toBe('pages/faca/addQuestion.html');
  });
});

describe('a page shell', () => {
  const index =
    '<head><title>Linewatch</title><script type="module" src="/assets/index.js"></script></head>';
  const sessionPreload = '<link rel="preload" as="fetch" crossorigin href="/api/session">';

  it('preloads the reply the guard asks for', () => {
    expect(SESSION_PATH).toBe(identityApi.session.path);
  });

  it("preloads the session reply before the entry's script where the guard asks for it", () => {
    const shell = pageShell(index, paths.deviceList, ['assets/page.js']);
    expect(shell.indexOf(sessionPreload)).toBeGreaterThan(-1);
    expect(shell.indexOf(sessionPreload)).toBeLessThan(shell.indexOf('<script type="module"'));
    expect(shell).toContain('<link rel="modulepreload" crossorigin href="/assets/page.js">');
    // A new webview opened on /login with a live cookie goes straight in: asked there too.
    expect(pageShell(index, paths.login, [])).toContain(sessionPreload);
  });

  it('does not preload it on a public page, which renders without asking', () => {
    expect(pageShell(index, paths.faultAlarm, [])).not.toContain(sessionPreload);
    expect(pageShell(index, paths.userApply, [])).not.toContain(sessionPreload);
  });
});
