import type { Db } from '../db/database.ts';

export const createApplicationsRepository = (db: Db) => ({
  /** When the codes of the last `since` were sent to this phone, newest first (the throttle). */
  sentSince: async (mobile: string, since: Date): Promise<Date[]> => {
    const rows = await db
      .selectFrom('verification_codes')
      .select('created_at')
      .where('mobile', '=', mobile)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => r.created_at);
  },

  insertCode: (mobile: string, codeHash: string, expiresAt: Date) =>
    db
      .insertInto('verification_codes')
      .values({ mobile, code_hash: codeHash, expires_at: expiresAt })
      .execute(),

  /** The newest code of a phone that is still usable: unused, unexpired, guesses left. */
  usableCode: (mobile: string, now: Date, maxAttempts: number) =>
    db
      .selectFrom('verification_codes')
      .select(['id', 'code_hash'])
      .where('mobile', '=', mobile)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '<', maxAttempts)
      .orderBy('id', 'desc')
      .executeTakeFirst(),

  countWrongGuess: (id: number) =>
    db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute(),

  /** Marks a code used; false when another request used it first. */
  useCode: async (id: number, now: Date): Promise<boolean> => {
    const rows = await db
      .updateTable('verification_codes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .returning('id')
      .execute();
    return rows.length === 1;
  },

  userExists: async (psnCode: string): Promise<boolean> =>
    Boolean(
      await db.selectFrom('users').select('id').where('psn_code', '=', psnCode).executeTakeFirst(),
    ),

  pendingExists: async (psnCode: string): Promise<boolean> =>
    Boolean(
      await db
        .selectFrom('account_applications')
        .select('id')
        .where('psn_code', '=', psnCode)
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    ),

  insertApplication: (row: { tokenHash: string; name: string; psnCode: string; mobile: string }) =>
    db
      .insertInto('account_applications')
      .values({
        token_hash: row.tokenHash,
        name: row.name,
        psn_code: row.psnCode,
        mobile: row.mobile,
      })
      .execute(),

  findByToken: (tokenHash: string) =>
    db
      .selectFrom('account_applications')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst(),
});

export type ApplicationsRepository = ReturnType<typeof createApplicationsRepository>;
