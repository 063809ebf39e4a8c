import type { FastifyRequest } from 'fastify';
import { forbidden } from '../foundation/http/envelope.ts';

/** Browsers send Origin on a handshake: only our own pages may open a socket. */
const sameOrigin = (request: FastifyRequest, publicUrl: string | undefined): boolean => {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    const url = new URL(origin);
    return (
      url.host === request.headers.host ||
      (publicUrl !== undefined && url.origin === new URL(publicUrl).origin)
    );
  } catch {
    return false;
  }
};

/** A socket route's preValidation: a handshake from a foreign page is refused (docs/design.md section 6). */
export const refuseForeignOrigin =
  (publicUrl: string | undefined) => async (request: FastifyRequest) => {
    if (!sameOrigin(request, publicUrl)) throw forbidden();
  };
