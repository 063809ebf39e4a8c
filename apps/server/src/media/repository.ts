import { sql, type Insertable } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type { MediaTable } from '../foundation/db/schema/faca.ts';
import type { Executor } from '../notifications/service.ts';

export const createMediaRepository = (db: Db) => ({
  insert: (rows: Insertable<MediaTable>[]) => db.insertInto('media').values(rows).execute(),

  find: (id: string) => db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst(),

  /** Locked until the form's transaction ends: the cleanup cannot delete what it attaches. */
  findMany: (tx: Executor, ids: readonly string[]) =>
    tx
      .selectFrom('media')
      .selectAll()
      .where('id', 'in', [...ids])
      .forUpdate()
      .execute(),

  /** Bytes of this user's uploads no form has saved yet (the quota). */
  unattachedBytes: async (ownerId: number): Promise<number> =>
    (
      await db
        .selectFrom('media')
        .select(sql<number>`coalesce(sum(size), 0)::float8`.as('bytes'))
        .where('owner_id', '=', ownerId)
        .where('faca_id', 'is', null)
        .executeTakeFirstOrThrow()
    ).bytes,

  /**
   * Deletes the rows of uploads no form saved before `before`, and of files whose question is
   * gone (its machine was deleted: questions go with it, uploads kept no reference); answers
   * them, so their files can go too. A row being attached is locked (findMany) and, its
   * question set, no longer matches when the delete gets to it.
   */
  deleteStale: (before: Date) =>
    db
      .deleteFrom('media')
      .where((eb) =>
        eb.or([
          eb.and([eb('faca_id', 'is', null), eb('created_at', '<', before)]),
          eb.and([
            eb('faca_id', 'is not', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('faca_questions as q')
                  .select('q.id')
                  .whereRef('q.id', '=', 'media.faca_id'),
              ),
            ),
          ]),
        ]),
      )
      .returning(['id', 'has_thumb'])
      .execute(),

  attach: (tx: Executor, ids: readonly string[], facaId: number) =>
    tx
      .updateTable('media')
      .set({ faca_id: facaId })
      .where('id', 'in', [...ids])
      .execute(),

  /** The machine of the question a file is attached to. */
  questionSn: async (facaId: number) =>
    (
      await db
        .selectFrom('faca_questions')
        .select('sn_code')
        .where('id', '=', facaId)
        .executeTakeFirst()
    )?.sn_code ?? null,
});

export type MediaRepository = ReturnType<typeof createMediaRepository>;
