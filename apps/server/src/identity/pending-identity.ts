import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IdentityProvider } from '../foundation/db/schema/identity.ts';

/**
 * An identity a provider vouched for that is not bound yet, carried in an HttpOnly cookie signed
 * with SECRET until the login form binds it. The bind form sends the openId / userid back as the
 * spec says, but only the one this browser was given is bound: without this anyone who knew a
 * colleague's openid could bind it to their own account and have the colleague signed in as them.
 * A cookie rather than server memory, so any server instance can check it; it binds once (its
 * id is recorded with the binding), so a copy replayed cannot move the identity elsewhere.
 */
export interface PendingIdentity {
  provider: IdentityProvider;
  subject: string;
  mobile?: string | undefined;
}

/** As opened from the cookie: its id (bound once, identity/repository.ts) and its expiry. */
export interface SealedPendingIdentity extends PendingIdentity {
  id: string;
  expiresAt: Date;
}

export const PENDING_IDENTITY_COOKIE = 'lw_pending_identity';
export const PENDING_IDENTITY_TTL_MS = 10 * 60_000;

const mac = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`pending-identity.${payload}`).digest('base64url');

export const sealPendingIdentity = (
  secret: string,
  identity: PendingIdentity,
  now = Date.now(),
): string => {
  const payload = Buffer.from(
    JSON.stringify({
      ...identity,
      id: randomBytes(16).toString('hex'),
      exp: now + PENDING_IDENTITY_TTL_MS,
    }),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
};

export const openPendingIdentity = (
  secret: string,
  token: string | undefined,
  now = Date.now(),
): SealedPendingIdentity | null => {
  const [payload, signature, ...rest] = (token ?? '').split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const value = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as PendingIdentity & { id: string; exp: number };
    if (typeof value.exp !== 'number' || value.exp <= now || typeof value.id !== 'string')
      return null;
    return {
      provider: value.provider,
      subject: value.subject,
      mobile: value.mobile,
      id: value.id,
      expiresAt: new Date(value.exp),
    };
  } catch {
    return null;
  }
};
