import type { Page } from '@linewatch/contracts/rules/paging';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { announce } from '../foundation/db/notices.ts';
import { writeAudit, type AuditRecord } from '../foundation/shared/audit.ts';
import type { Database } from '../foundation/db/schema.ts';

/** A user with the lines granted them. */
export interface User {
  id: number;
  psnCode: string;
  name: string;
  nickName: string;
  mobile: string | null;
  isAdmin: boolean;
  disabled: boolean;
  lineIds: number[];
  createdAt: Date;
}

/** One entry of the audit log; `before` and `after` as recorded (JSON). */
export interface AuditLogEntry {
  id: number;
  actorName: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

const releaseIdentities = async (db: Kysely<Database>, userId: number) =>
  (
    await db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .returning('provider')
      .execute()
  )
    .map((r) => r.provider)
    .sort();

/**
 * `users` and `user_lines` (this is their only writer besides identity's `users.mobile`), the
 * approvals' status in `account_applications`, and the audit log's listing.
 */
const repositoryOn = (db: Db) => {
  const usersQuery = () =>
    db
      .selectFrom('users')
      .select([
        'users.id',
        'users.psn_code',
        'users.name',
        'users.nick_name',
        'users.mobile',
        'users.is_admin',
        'users.disabled',
        'users.created_at',
        sql<
          number[]
        >`coalesce((select array_agg(ul.line_id order by ul.line_id) from user_lines ul where ul.user_id = users.id), '{}')`.as(
          'line_ids',
        ),
      ]);
  type UserRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirstOrThrow']>>;
  // Its keys in this order: the audit log records a user as this object (JSON), as it always has.
  const toUser = (r: UserRow): User => ({
    id: r.id,
    psnCode: r.psn_code,
    name: r.name,
    nickName: r.nick_name,
    mobile: r.mobile,
    isAdmin: r.is_admin,
    disabled: r.disabled,
    lineIds: r.line_ids.map(Number),
    createdAt: r.created_at,
  });

  return {
    audit: (entry: AuditRecord) => writeAudit(db, entry),

    /** The audit log, newest first: every domain's entries (foundation/shared/audit.ts). */
    auditPage: async (offset: number, limit: number): Promise<Page<AuditLogEntry>> => {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('audit_log')
          .selectAll()
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        total: Number(total.n),
        data: rows.map((a) => ({
          id: Number(a.id),
          actorName: a.actor_name,
          action: a.action,
          target: a.target,
          before: a.before,
          after: a.after,
          createdAt: a.created_at,
        })),
      };
    },

    // users ----------------------------------------------------------------------------------

    users: async () => (await usersQuery().orderBy('users.id').execute()).map(toUser),

    user: async (id: number) => {
      const row = await usersQuery().where('users.id', '=', id).executeTakeFirst();
      return row ? toUser(row) : undefined;
    },

    userIdByPsnCode: async (psnCode: string) =>
      (await db.selectFrom('users').select('id').where('psn_code', '=', psnCode).executeTakeFirst())
        ?.id,

    insertUser: async (user: {
      psnCode: string;
      name: string;
      nickName: string;
      mobile: string | null;
      passwordHash: string;
      isAdmin: boolean;
    }) =>
      (
        await db
          .insertInto('users')
          .values({
            psn_code: user.psnCode,
            name: user.name,
            nick_name: user.nickName,
            mobile: user.mobile,
            password_hash: user.passwordHash,
            is_admin: user.isAdmin,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    updateUser: (
      id: number,
      patch: {
        name?: string | undefined;
        nickName?: string | undefined;
        isAdmin?: boolean | undefined;
        passwordHash?: string;
      },
    ) => {
      const columns = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.nickName !== undefined ? { nick_name: patch.nickName } : {}),
        ...(patch.isAdmin !== undefined ? { is_admin: patch.isAdmin } : {}),
        ...(patch.passwordHash !== undefined ? { password_hash: patch.passwordHash } : {}),
      };
      // Granting lines alone changes no column here (an empty SET is not SQL).
      return Object.keys(columns).length === 0
        ? Promise.resolve()
        : db.updateTable('users').set(columns).where('id', '=', id).execute();
    },

    /**
     * Tells every instance (identity's session cache) that the user's name, rights or state
     * changed; in the change's transaction, it goes out when the change commits.
     */
    announceUserChanged: (id: number) => announce(db, 'users_changed', { users: [id] }),

    /** Disabling also releases the messaging identities, so no silent sign-in brings them back. */
    setDisabled: async (id: number, disabled: boolean) => {
      const apply = async (tx: Kysely<Database>) => {
        await tx.updateTable('users').set({ disabled }).where('id', '=', id).execute();
        if (disabled) await releaseIdentities(tx, id);
      };
      // The CLI may run this inside its caller's transaction already.
      await (db.isTransaction ? apply(db) : db.transaction().execute(apply));
    },

    /**
     * Unbinds every WeChat / DingTalk identity of the user (a password reset): whoever bound their
     * own messaging account with the old password signs in silently no more. Returns the
     * providers unbound.
     */
    releaseIdentities: (id: number) => releaseIdentities(db, id),

    setUserLines: async (userId: number, lineIds: readonly number[]) => {
      await db.deleteFrom('user_lines').where('user_id', '=', userId).execute();
      if (lineIds.length > 0)
        await db
          .insertInto('user_lines')
          .values(lineIds.map((line_id) => ({ user_id: userId, line_id })))
          .execute();
    },
  };
};

export type UsersRepository = ReturnType<typeof repositoryOn> & {
  /**
   * Runs `work` in one transaction with a repository bound to it; `tx` is the transaction itself,
   * for another domain's write that must commit with this one (an approval's decision).
   */
  transaction<T>(work: (repo: UsersRepository, tx: Db) => Promise<T>): Promise<T>;
};

export const createUsersRepository = (db: Db): UsersRepository => ({
  ...repositoryOn(db),
  transaction: (work) => db.transaction().execute((tx) => work(createUsersRepository(tx), tx)),
});
