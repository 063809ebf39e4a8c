import type { Db } from '../db/database.ts';

export const createIdentityRepository = (db: Db) => ({
  findUserByPsnCode: (psnCode: string) =>
    db.selectFrom('users').selectAll().where('psn_code', '=', psnCode).executeTakeFirst(),

  createSession: (keyHash: string, userId: number, expiresAt: Date) =>
    db
      .insertInto('sessions')
      .values({ key_hash: keyHash, user_id: userId, expires_at: expiresAt })
      .execute(),

  findSession: (keyHash: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.key_hash',
        'sessions.expires_at',
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

  deleteSession: (keyHash: string) =>
    db.deleteFrom('sessions').where('key_hash', '=', keyHash).execute(),

  /** Ends every session of a user; returns their key hashes (their sockets close with them). */
  deleteUserSessions: async (userId: number): Promise<string[]> => {
    const rows = await db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .returning('key_hash')
      .execute();
    return rows.map((r) => r.key_hash);
  },

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
    db.deleteFrom('sessions').where('expires_at', '<', now).execute(),

  /** A messaging-app identity belongs to one user: taking it releases it from any other. */
  bindOpenId: (userId: number, openId: string) =>
    db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ open_id: null }).where('open_id', '=', openId).execute();
      await tx.updateTable('users').set({ open_id: openId }).where('id', '=', userId).execute();
    }),

  bindDingTalk: (userId: number, dingDingUserId: string, mobile: string | undefined) =>
    db.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ dingding_user_id: null })
        .where('dingding_user_id', '=', dingDingUserId)
        .execute();
      await tx
        .updateTable('users')
        .set({ dingding_user_id: dingDingUserId, ...(mobile ? { mobile } : {}) })
        .where('id', '=', userId)
        .execute();
    }),

  unbindMessagingIdentities: (userId: number) =>
    db
      .updateTable('users')
      .set({ open_id: null, dingding_user_id: null })
      .where('id', '=', userId)
      .execute(),
});

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
