import type { FailureCase } from '@linewatch/contracts/cases';
import type { Db } from '../foundation/db/database.ts';

export const createCasesRepository = (db: Db) => ({
  /** A case is its reply as it is: the contract's FailureCase is the domain type (no presenter). */
  find: async (id: number): Promise<FailureCase | undefined> => {
    const row = await db
      .selectFrom('failure_cases as c')
      .leftJoin('alarm_definitions as a', 'a.code', 'c.warning_code')
      // The machine's own name (a case's stored name is only for an SN no machine has): a case
      // once said 贴片机 of a machine that is a reflow oven.
      .leftJoin('devices as d', 'd.sn_code', 'c.sn_code')
      .select((eb) => [
        'c.id',
        'c.warning_code',
        'c.sn_code',
        eb.fn.coalesce('d.device_name', 'c.device_name').as('device_name'),
        'c.shootings',
        'a.description',
      ])
      .where('c.id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        warningCode: row.warning_code,
        description: row.description ?? '',
        snCode: row.sn_code,
        deviceName: row.device_name,
        shootings: row.shootings as FailureCase['shootings'],
      }
    );
  },

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
