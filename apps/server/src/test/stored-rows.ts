import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';

/**
 * What the server stored for one machine, in the shape of `truthRows` (test/truth.ts): minute,
 * hour and day rows, status changes, alarms and operation lines, each in time order.
 */
export const storedRows = async (db: Db, sn: string) => {
  const figures = [
    'produced',
    'ok',
    'ng',
    'first_pass_ok',
    'gap_produced',
    'running_ms',
    'idle_ms',
    'fault_ms',
    'idle_upstream_ms',
    'idle_downstream_ms',
  ] as const;
  const minutes = await db
    .selectFrom('rollup_minute')
    .select(['minute', ...figures])
    .where('sn_code', '=', sn)
    .orderBy('minute')
    .execute();
  const hours = await db
    .selectFrom('rollup_hour')
    .select(['hour', ...figures, 'max_minute_produced', 'covered_minutes'])
    .where('sn_code', '=', sn)
    .orderBy('hour')
    .execute();
  const days = await db
    .selectFrom('rollup_day')
    .select([
      sql<string>`day::text`.as('day'),
      ...figures,
      'max_minute_produced',
      'covered_minutes',
    ])
    .where('sn_code', '=', sn)
    .orderBy('day')
    .execute();
  const statusChanges = await db
    .selectFrom('status_changes')
    .select(['ts', 'status', 'idle_reason'])
    .where('sn_code', '=', sn)
    .orderBy('ts')
    .orderBy('id')
    .execute();
  const alarms = await db
    .selectFrom('alarms')
    .select(['code', 'begin_at', 'end_at'])
    .where('sn_code', '=', sn)
    .orderBy('begin_at')
    .orderBy('id')
    .execute();
  const operations = await db
    .selectFrom('operation_logs')
    .select(['ts', 'comment', 'set_value', 'user_name'])
    .where('sn_code', '=', sn)
    .orderBy('ts')
    .orderBy('id')
    .execute();
  return {
    minutes: minutes.map(({ minute, ...f }) => ({ minute: minute.getTime(), ...f })),
    hours: hours.map(({ hour, ...f }) => ({ hour: hour.getTime(), ...f })),
    days,
    statusChanges: statusChanges.map((s) => ({ ...s, ts: s.ts.getTime() })),
    alarms: alarms.map((a) => ({
      code: a.code,
      begin: a.begin_at.getTime(),
      end: a.end_at?.getTime() ?? null,
    })),
    operations: operations.map((o) => ({ ...o, ts: o.ts.getTime() })),
  };
};
