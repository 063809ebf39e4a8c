import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { errorHandler } from '../http/error-handler.ts';

/**
 * Security headers (helmet with the app's CSP) and one error envelope for every failure
 * (DESIGN.md section 6). Registered before any route, so every route inherits both.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
    });
    // Where a schema names no message of its own (a number sent for a string), zod's Chinese one.
    z.config(z.locales.zhCN());
    app.setErrorHandler(errorHandler);
  },
  { name: 'security' },
);
