import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { notFoundReply } from '../http/error-handler.ts';

/**
 * The built web app (apps/web/dist) when there is one, and what answers a path no route has: a
 * page path gets the app shell (history-mode routes), anything else the 0404 envelope.
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, { root }: { root: string }) => {
    const appShell = existsSync(root);
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
      if (
        appShell &&
        request.method === 'GET' &&
        !/^\/(api|ws)\//.test(path) &&
        !path.includes('.')
      ) {
        return reply.sendFile('index.html');
      }
      return notFoundReply(request, reply);
    });
  },
  { name: 'web-app' },
);
