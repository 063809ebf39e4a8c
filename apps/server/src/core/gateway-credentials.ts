import { randomBytes } from 'node:crypto';
import type { Db } from '../foundation/db/database.ts';
import { sha256, verifySecret } from '../foundation/shared/secrets.ts';

/**
 * Checks a gateway's MQTT sign-in against its scrypt hash. A verified secret is remembered (as a
 * hash, with the stored hash it matched) so a fleet reconnecting at once does not queue hundreds
 * of scrypt runs; a rotated credential changes the stored hash, so the old secret stops working.
 */
export const createGatewayVerifier = (db: Db) => {
  const verified = new Map<string, { fingerprint: string; passwordHash: string }>();
  return async (gatewayId: string, secret: string): Promise<boolean> => {
    const fingerprint = sha256(`${gatewayId}\n${secret}`);
    const row = await db
      .selectFrom('gateways')
      .select('password_hash')
      .where('id', '=', gatewayId)
      .executeTakeFirst();
    if (!row) return false;
    const known = verified.get(gatewayId);
    if (known?.fingerprint === fingerprint && known.passwordHash === row.password_hash) return true;
    if (!(await verifySecret(secret, row.password_hash))) return false;
    verified.set(gatewayId, { fingerprint, passwordHash: row.password_hash });
    return true;
  };
};

/** A gateway's new secret: 192 random bits, shown to the admin once. */
export const newGatewaySecret = () => randomBytes(24).toString('base64url');
