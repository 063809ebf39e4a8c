import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';

/**
 * An account application: its applicant follows it by token, the administrators decide it
 * (users/service.ts). This domain owns `account_applications` and is its only writer.
 */
export interface Application {
  id: number;
  name: string;
  psnCode: string;
  mobile: string;
  status: 'pending' | 'approved' | 'rejected';
  reason: string;
  createdAt: Date;
  decidedAt: Date | null;
}

const APPLICATION_COLUMNS = [
  'id',
  'name',
  'psn_code',
  'mobile',
  'status',
  'reason',
  'created_at',
  'decided_at',
] as const;

const applicationOf = (row: {
  id: number;
  name: string;
  psn_code: string;
  mobile: string;
  status: Application['status'];
  reason: string;
  created_at: Date;
  decided_at: Date | null;
}): Application => ({
  id: row.id,
  name: row.name,
  psnCode: row.psn_code,
  mobile: row.mobile,
  status: row.status,
  reason: row.reason,
  createdAt: row.created_at,
  decidedAt: row.decided_at,
});

const findBy = async (
  db: Db,
  column: 'id' | 'token_hash',
  value: number | string,
): Promise<Application | undefined> => {
  const row = await db
    .selectFrom('account_applications')
    .select(APPLICATION_COLUMNS)
    .where(column, '=', value)
    .executeTakeFirst();
  return row && applicationOf(row);
};

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

  /** How many codes were sent since `since`, and the oldest of them (when a slot frees). */
  countSince: async (
    since: Date,
    address?: string,
  ): Promise<{ count: number; oldest: Date | null }> => {
    let q = db
      .selectFrom('verification_codes')
      .select([
        sql<number>`count(*)::int`.as('count'),
        sql<Date | null>`min(created_at)`.as('oldest'),
      ])
      .where('created_at', '>', since);
    if (address !== undefined) q = q.where('address', '=', address);
    const row = await q.executeTakeFirstOrThrow();
    return { count: row.count, oldest: row.oldest && new Date(row.oldest) };
  },

  insertCode: (mobile: string, address: string, codeHash: string, expiresAt: Date) =>
    db
      .insertInto('verification_codes')
      .values({ mobile, address, code_hash: codeHash, expires_at: expiresAt })
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

  findByToken: (tokenHash: string) => findBy(db, 'token_hash', tokenHash),

  findById: (id: number) => findBy(db, 'id', id),

  /** The administrators' list: pending first, then newest first; the latest 500. */
  list: async (): Promise<Application[]> =>
    (
      await db
        .selectFrom('account_applications')
        .select(APPLICATION_COLUMNS)
        .orderBy(sql`status = 'pending'`, 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute()
    ).map(applicationOf),

  decide: (
    id: number,
    decision: { status: 'approved' | 'rejected'; reason: string; userId: number | null },
  ) =>
    db
      .updateTable('account_applications')
      .set({
        status: decision.status,
        reason: decision.reason,
        user_id: decision.userId,
        decided_at: new Date(),
      })
      .where('id', '=', id)
      .execute(),
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
  /**
   * `withPhoneLocked` that also holds the sending lock, one for the whole database: the counts
   * per address and overall, and the insert, are one step for every instance. Sends are rare
   * and the lock is held for two counts and an insert, never for the text message itself.
   */
  withSendingLocked<T>(
    mobile: string,
    work: (repo: ApplicationsRepository) => Promise<T>,
  ): Promise<T>;
};

const lock = (tx: Db, key: string) =>
  sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);

export const createApplicationsRepository = (db: Db): ApplicationsRepository => ({
  ...repositoryOn(db),
  withPhoneLocked: (mobile, work) =>
    db.transaction().execute(async (tx) => {
      await lock(tx, `sms:${mobile}`);
      return work(createApplicationsRepository(tx));
    }),
  withSendingLocked: (mobile, work) =>
    db.transaction().execute(async (tx) => {
      // Always this order (apply takes only the phone's): no two transactions wait on each other.
      await lock(tx, 'sms:sending');
      await lock(tx, `sms:${mobile}`);
      return work(createApplicationsRepository(tx));
    }),
});
