import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';

/** The time zone every bench server runs its factory in. */
export const TIMEZONE = 'Asia/Shanghai';

/** 'YYYY-MM-DD' of the factory day `offset` days from today. */
export const factoryDay = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(Date.now() + offset * 86_400_000);

/** `days` day rollups (before today) for every machine, in one statement. */
export const seedDayRollups = (db: Db, days: number) =>
  sql`insert into rollup_day (sn_code, day, produced, ok, ng, first_pass_ok, running_ms,
      idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms, gap_produced, max_minute_produced)
    select d.sn_code, (${factoryDay(0)}::date - g), 60000 + (g * 37 + length(d.sn_code)) % 5000,
      59000, 400, 58000, 72000000, 10000000, 4400000, 6000000, 4000000, 0, 75
    from devices d cross join generate_series(1, ${days}) g`.execute(db);
