/** The dist file of each route's HTML copy: /faca/addQuestion → pages/faca/addQuestion.html. */
export const pageHtmlFile = (path: string): string => `pages${path}.html`;

/** Paths that are never pages: the API, sockets and metrics go to the network as they are. */
export const NOT_A_PAGE = /^\/((api|ws)\/|metrics(\/|$))/;

/**
 * The precached app shell a page navigation is answered with, as the server picks it
 * (apps/server/src/plugins/web-app.ts): the route's own copy when the build wrote one (its
 * chunks preloaded), else index.html. `has` tells whether a dist file is precached.
 */
export const shellFor = (pathname: string, has: (file: string) => boolean): string => {
  const own = pageHtmlFile(pathname);
  return has(own) ? own : 'index.html';
};
