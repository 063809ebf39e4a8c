import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { notFoundReply } from '../foundation/http/error-handler.ts';

/**
 * The routes the build wrote an app shell of their own for (dist/pages/<route>.html: index.html
 * with the page's chunks preloaded, apps/web/vite-route-preloads.ts), e.g. /faca/addQuestion.
 */
const routeShells = (root: string): Set<string> => {
  const dir = join(root, 'pages');
  if (!existsSync(dir)) return new Set();
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  return new Set(
    files.filter((file) => file.endsWith('.html')).map((file) => `/${file.slice(0, -5)}`),
  );
};

/**
 * The built web app (apps/web/dist) when there is one, and what answers a path no route has: a
 * page path gets the app shell (history-mode routes; the route's own when the build made one),
 * anything else the 0404 envelope.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, { root }: { root: string }) => {
    const appShell = existsSync(root);
    const shells = appShell ? routeShells(root) : new Set<string>();
    if (appShell) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        // The build writes .br and .gz beside each file; phones get the smallest they accept.
        preCompressed: true,
        // File names under assets/ carry a content hash; index.html must be checked every time.
        cacheControl: false,
        setHeaders: (res, path) => {
          const hashed = /[\\/]assets[\\/]/.test(path);
          res.setHeader(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      // /metrics is never a page: a scraper asking a wrong variant of it must not get a 200 page.
      if (
        appShell &&
        request.method === 'GET' &&
        !/^\/((api|ws)\/|metrics(\/|$))/.test(path) &&
        !path.includes('.')
      ) {
        return reply.sendFile(shells.has(path) ? `pages${path}.html` : 'index.html');
      }
      return notFoundReply(request, reply);
    });
  },
  { name: 'web-app' },
);
