import type { Insertable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { MediaTable } from '../db/schema/faca.ts';
import type { Executor } from '../notifications/service.ts';

export const createMediaRepository = (db: Db) => ({
  insert: (rows: Insertable<MediaTable>[]) => db.insertInto('media').values(rows).execute(),

  find: (id: string) => db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst(),

  findMany: (tx: Executor, ids: readonly string[]) =>
    tx
      .selectFrom('media')
      .selectAll()
      .where('id', 'in', [...ids])
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
