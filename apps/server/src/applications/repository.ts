import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const repositoryOn = (db: Db) => ({
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

  /** Files an application; false when this employee number has one pending already. */
  insertApplication: async (row: {
    tokenHash: string;
    name: string;
    psnCode: string;
    mobile: string;
  }): Promise<boolean> => {
    const inserted = await db
      .insertInto('account_applications')
      .values({
        token_hash: row.tokenHash,
        name: row.name,
        psn_code: row.psnCode,
        mobile: row.mobile,
      })
      // account_applications_pending_idx: one open application per employee number
      .onConflict((oc) => oc.column('psn_code').where('status', '=', 'pending').doNothing())
      .returning('id')
      .execute();
    return inserted.length === 1;
  },

  findByToken: (tokenHash: string) =>
    db
      .selectFrom('account_applications')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst(),
});

export type ApplicationsRepository = ReturnType<typeof repositoryOn> & {
  /**
   * Runs `work` in one transaction holding this phone's lock, so that the throttle's count and
   * its insert, or a guess and its count, are one step for every server instance on the database.
   */
  withPhoneLocked<T>(
    mobile: string,
    work: (repo: ApplicationsRepository) => Promise<T>,
  ): Promise<T>;
};

export const createApplicationsRepository = (db: Db): ApplicationsRepository => ({
  ...repositoryOn(db),
  withPhoneLocked: (mobile, work) =>
    db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sms:${mobile}`}, 0))`.execute(tx);
      return work(createApplicationsRepository(tx));
    }),
});
