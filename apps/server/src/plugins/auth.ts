import { KEY_ID_COOKIE, KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { notSignedIn } from '../http/envelope.ts';
import type { IdentityService, SessionUser } from '../identity/service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a keyId. */
    public?: boolean;
    /** Changes state even though it is a GET: the cookie alone is refused. */
    stateChanging?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Finds the keyId of a request: the header always counts; the cookie only for reads and socket
 * handshakes, so a forged cross-site form cannot change anything (DESIGN.md section 6).
 */
export const keyIdOf = (request: FastifyRequest, allowQuery = false): string | undefined => {
  const header = request.headers[KEY_ID_HEADER.toLowerCase()];
  if (typeof header === 'string' && header) return header;
  if (allowQuery) {
    const query = (request.query as Record<string, unknown> | undefined)?.keyId;
    if (typeof query === 'string' && query) return query;
  }
  const cookieAllowed =
    SAFE_METHODS.has(request.method) && !request.routeOptions.config.stateChanging;
  return cookieAllowed ? request.cookies[KEY_ID_COOKIE] || undefined : undefined;
};

export const authPlugin = fp(
  async (app: FastifyInstance, { identity }: { identity: IdentityService }) => {
    app.decorateRequest('user', null);
    app.addHook('onRequest', async (request) => {
      // Only the API needs a keyId: the web app's files are public, and sockets authorise in
      // their own handler (query keyId, origin).
      const url = request.routeOptions.url;
      if (!url?.startsWith('/api/') || request.routeOptions.config.public) return;
      const keyId = keyIdOf(request);
      const user = keyId ? await identity.authenticate(keyId) : null;
      if (!user) throw notSignedIn();
      request.user = user;
    });
  },
  { name: 'auth' },
);

/** The signed-in user of a route that is not public (the hook guarantees one). */
export const userOf = (request: FastifyRequest): SessionUser => {
  if (!request.user) throw notSignedIn();
  return request.user;
};
