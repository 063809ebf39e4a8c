import type { Db } from '../db/database.ts';
import { sha256, verifySecret } from '../shared/secrets.ts';

/**
 * Checks a gateway's MQTT sign-in against its scrypt hash. A verified secret is remembered (as a
 * hash) so a fleet reconnecting at once does not queue hundreds of scrypt runs.
 */
export const createGatewayVerifier = (db: Db) => {
  const verified = new Map<string, string>();
  return async (gatewayId: string, secret: string): Promise<boolean> => {
    const fingerprint = sha256(`${gatewayId}\n${secret}`);
    if (verified.get(gatewayId) === fingerprint) return true;
    const row = await db
      .selectFrom('gateways')
      .select('password_hash')
      .where('id', '=', gatewayId)
      .executeTakeFirst();
    if (!row || !(await verifySecret(secret, row.password_hash))) return false;
    verified.set(gatewayId, fingerprint);
    return true;
  };
};
