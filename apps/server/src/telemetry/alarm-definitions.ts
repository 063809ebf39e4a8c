import type { Db } from '../foundation/db/database.ts';

/** Alarm code → description (migration 004), read once at start: a small, rarely changed table. */
export const loadAlarmDefinitions = async (db: Db): Promise<ReadonlyMap<string, string>> => {
  const rows = await db.selectFrom('alarm_definitions').select(['code', 'description']).execute();
  return new Map(rows.map((r) => [r.code, r.description]));
};
