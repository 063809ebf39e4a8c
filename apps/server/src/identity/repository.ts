import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { announce } from '../foundation/db/notices.ts';
import { writeAudit, type AuditRecord } from '../foundation/shared/audit.ts';
import type { FailureReason, SignInMethod } from './sign-in-audit.ts';
import type { IdentityProvider, SignedInWith } from '../foundation/db/schema/identity.ts';

/** A user account as signing in reads it. */
export interface Account {
  id: number;
  psnCode: string;
  name: string;
  nickName: string;
  mobile: string | null;
  isAdmin: boolean;
  disabled: boolean;
  passwordHash: string;
}

const usersQuery = (db: Db) =>
  db
    .selectFrom('users')
    .select([
      'id',
      'psn_code',
      'name',
      'nick_name',
      'mobile',
      'is_admin',
      'disabled',
      'password_hash',
    ]);

const accountOf = (
  row: Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirst']>>,
): Account | undefined =>
  row && {
    id: row.id,
    psnCode: row.psn_code,
    name: row.name,
    nickName: row.nick_name,
    mobile: row.mobile,
    isAdmin: row.is_admin,
    disabled: row.disabled,
    passwordHash: row.password_hash,
  };

/** The first five distinct values of a failure entry's list, old and new (`field` is ours). */
const mergedList = (field: string) => {
  const [old, added] = [
    sql`(audit_log.after -> ${sql.lit(field)})`,
    sql`(EXCLUDED.after -> ${sql.lit(field)})`,
  ];
  return sql`(SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (SELECT DISTINCT v FROM
    jsonb_array_elements(${old} || ${added}) AS e(v) LIMIT 5) AS d)`;
};

export const createIdentityRepository = (db: Db) => ({
  /** Sign-ins, bindings and unbindings in the audit log the admin pages show. */
  audit: (entry: AuditRecord) => writeAudit(db, entry),

  /**
   * Counts a failed sign-in into its entry (`key`, sign-in-audit.ts): the first creates it, the
   * next ones add to its count and lists, in one statement whichever instance writes.
   */
  countFailedSignIn: async (failure: {
    key: string;
    actorName: string;
    target: string;
    method: SignInMethod;
    reason: FailureReason;
    address: string;
    account: string | undefined;
    at: Date;
  }) => {
    const after = {
      count: 1,
      lastAt: failure.at.toISOString(),
      methods: [failure.method],
      reasons: [failure.reason],
      addresses: [failure.address],
      accounts: failure.account ? [failure.account] : [],
    };
    await sql`
      INSERT INTO audit_log (actor_id, actor_name, action, target, after, aggregate_key)
      VALUES (NULL, ${failure.actorName}, 'signIn.failed', ${failure.target},
        ${JSON.stringify(after)}::jsonb, ${failure.key})
      ON CONFLICT (aggregate_key) WHERE aggregate_key IS NOT NULL DO UPDATE SET after =
        jsonb_build_object(
          'count', (audit_log.after ->> 'count')::int + 1,
          'lastAt', EXCLUDED.after -> 'lastAt',
          'methods', ${mergedList('methods')},
          'reasons', ${mergedList('reasons')},
          'addresses', ${mergedList('addresses')},
          'accounts', ${mergedList('accounts')})`.execute(db);
  },

  findUserByPsnCode: async (psnCode: string) =>
    accountOf(await usersQuery(db).where('psn_code', '=', psnCode).executeTakeFirst()),

  createSession: (keyHash: string, userId: number, expiresAt: Date, signedInWith: SignedInWith) =>
    db
      .insertInto('sessions')
      .values({
        key_hash: keyHash,
        user_id: userId,
        expires_at: expiresAt,
        signed_in_with: signedInWith,
      })
      .execute(),

  findSession: (keyHash: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.key_hash',
        'sessions.expires_at',
        'sessions.signed_in_with',
        'users.id as userId',
        'users.name',
        'users.nick_name',
        'users.is_admin',
      ])
      .where('sessions.key_hash', '=', keyHash)
      .where('users.disabled', '=', false)
      .executeTakeFirst(),

  extendSession: (keyHash: string, expiresAt: Date) =>
    db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('key_hash', '=', keyHash)
      .execute(),

  /** Ends a session, telling the other instances in the same transaction (db/notices.ts). */
  deleteSession: (keyHash: string) =>
    db.transaction().execute(async (tx) => {
      await tx.deleteFrom('sessions').where('key_hash', '=', keyHash).execute();
      await announce(tx, 'sessions_ended', { session: keyHash });
    }),

  /** Ends every session of a user, telling the other instances in the same transaction. */
  deleteUserSessions: (userId: number) =>
    db.transaction().execute(async (tx) => {
      await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await announce(tx, 'sessions_ended', { user: userId });
    }),

  /** Which of these sessions still exist and have not expired. */
  liveSessions: async (keyHashes: string[], now: Date): Promise<Set<string>> => {
    if (keyHashes.length === 0) return new Set();
    // A disabled user's sessions are dead even before they are deleted (a change from the CLI).
    const rows = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.key_hash')
      .where('sessions.key_hash', 'in', keyHashes)
      .where('sessions.expires_at', '>', now)
      .where('users.disabled', '=', false)
      .execute();
    return new Set(rows.map((r) => r.key_hash));
  },

  deleteExpiredSessions: (now: Date) =>
    db.transaction().execute(async (tx) => {
      await tx.deleteFrom('sessions').where('expires_at', '<', now).execute();
      // A pending identity past its expiry is refused when opened: its record is no longer needed.
      await tx.deleteFrom('spent_pending_identities').where('expires_at', '<', now).execute();
    }),

  findUserById: async (userId: number) =>
    accountOf(await usersQuery(db).where('id', '=', userId).executeTakeFirst()),

  findUserIdByIdentity: async (provider: IdentityProvider, subject: string) =>
    (
      await db
        .selectFrom('user_identities')
        .select('user_id')
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst()
    )?.user_id,

  /**
   * A messaging-app identity belongs to one user and a user has one per provider: binding
   * releases the identity from anyone else and replaces the user's previous one. `proof` is the
   * pending identity that vouched for it: it binds once (false, and nothing bound, after that).
   */
  bindIdentity: (
    userId: number,
    provider: IdentityProvider,
    subject: string,
    mobile: string | undefined,
    proof: { id: string; expiresAt: Date },
  ): Promise<boolean> =>
    db.transaction().execute(async (tx) => {
      const spent = await tx
        .insertInto('spent_pending_identities')
        .values({ id: proof.id, expires_at: proof.expiresAt })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!spent) return false;
      await tx
        .deleteFrom('user_identities')
        .where('provider', '=', provider)
        .where((eb) => eb.or([eb('subject', '=', subject), eb('user_id', '=', userId)]))
        .execute();
      await tx
        .insertInto('user_identities')
        .values({ provider, subject, user_id: userId })
        .execute();
      if (mobile) await tx.updateTable('users').set({ mobile }).where('id', '=', userId).execute();
      return true;
    }),

  unbindIdentity: (userId: number, provider: IdentityProvider) =>
    db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .execute(),

  // A platform's once-per-application value, one row for every instance (shared-credential.ts).

  readCredential: async (name: string) => {
    const row = await db
      .selectFrom('provider_credentials')
      .select(['value', 'expires_at'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { value: row.value, expiresAt: row.expires_at };
  },

  /** One statement, so two instances claiming at once cannot both take it. */
  claimCredential: async (
    name: string,
    claim: { now: Date; until: Date; staleBefore: Date },
  ): Promise<boolean> => {
    const taken = await db
      .insertInto('provider_credentials')
      .values({ name, refreshing_until: claim.until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ refreshing_until: claim.until })
          .where((eb) =>
            eb.and([
              eb('provider_credentials.expires_at', '<', claim.staleBefore),
              eb.or([
                eb('provider_credentials.refreshing_until', 'is', null),
                eb('provider_credentials.refreshing_until', '<', claim.now),
              ]),
            ]),
          ),
      )
      .returning('name')
      .executeTakeFirst();
    return taken !== undefined;
  },

  saveCredential: async (name: string, value: string, expiresAt: Date): Promise<void> => {
    await db
      .updateTable('provider_credentials')
      .set({ value, expires_at: expiresAt, refreshing_until: null })
      .where('name', '=', name)
      .execute();
  },

  releaseCredential: async (name: string): Promise<void> => {
    await db
      .updateTable('provider_credentials')
      .set({ refreshing_until: null })
      .where('name', '=', name)
      .execute();
  },
});

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
