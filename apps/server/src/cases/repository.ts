import type { Db } from '../db/database.ts';

export const createCasesRepository = (db: Db) => ({
  find: (id: number) =>
    db
      .selectFrom('failure_cases as c')
      .leftJoin('alarm_definitions as a', 'a.code', 'c.warning_code')
      .select([
        'c.id',
        'c.warning_code',
        'c.sn_code',
        'c.device_name',
        'c.shootings',
        'a.description',
      ])
      .where('c.id', '=', id)
      .executeTakeFirst(),

  /** Case id per alarm code (the lowest when a code has several); `executor`: a caller's transaction. */
  async idsByCode(executor: Db = db): Promise<Map<string, number>> {
    const rows = await executor
      .selectFrom('failure_cases')
      .select(['warning_code', (eb) => eb.fn.min('id').as('id')])
      .groupBy('warning_code')
      .execute();
    return new Map(rows.map((r) => [r.warning_code, Number(r.id)]));
  },
});

export type CasesRepository = ReturnType<typeof createCasesRepository>;
