import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import { hashSecret } from '../../apps/server/src/shared/secrets.ts';

/** The admin `bench` every API benchmark signs in as. */
export const BENCH_PASSWORD = 'Bench@2026';

/** The time zone every bench server runs its factory in. */
export const TIMEZONE = 'Asia/Shanghai';

/** 'YYYY-MM-DD' of the factory day `offset` days from today. */
export const factoryDay = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(Date.now() + offset * 86_400_000);

/** The factory's wall clock now, 'YYYY-MM-DD HH:mm:ss' (the statistics' parameters). */
export const factoryNow = () =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: TIMEZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(Date.now());

/** `days` day rollups (before today) for every machine, in one statement. */
export const seedDayRollups = (db: Db, days: number) =>
  sql`insert into rollup_day (sn_code, day, produced, ok, ng, first_pass_ok, running_ms,
      idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms, gap_produced, max_minute_produced)
    select d.sn_code, (${factoryDay(0)}::date - g), 60000 + (g * 37 + length(d.sn_code)) % 5000,
      59000, 400, 58000, 72000000, 10000000, 4400000, 6000000, 4000000, 0, 75
    from devices d cross join generate_series(1, ${days}) g`.execute(db);

/**
 * The admin `bench` and `machines` machines B-000001… on `lines` lines of three product groups
 * each, with targets, placed in Shenzhen; no gateway. In SQL: 10,000 machines in a second.
 */
export const seedMachines = async (db: Db, machines: number, lines = 20) => {
  await db
    .insertInto('users')
    .values({
      psn_code: 'bench',
      name: 'bench',
      password_hash: await hashSecret(BENCH_PASSWORD),
      is_admin: true,
    })
    .execute();
  await sql`insert into production_lines (name, sort) select '基准线' || i, i from generate_series(1, ${lines}) i`.execute(
    db,
  );
  await sql`insert into product_groups (line_id, name)
    select l.id, l.name || '-工序' || g from production_lines l cross join generate_series(1, 3) g`.execute(
    db,
  );
  await sql`insert into devices (sn_code, device_name, line_id, group_id, ppm_target, yield_target,
      use_rate_target, produce_target_number, ng_target_number, province, city, lng, lat)
    select 'B-' || lpad(i::text, 6, '0'), '基准机' || i, l.id,
      (select g.id from product_groups g where g.line_id = l.id order by g.id limit 1 offset i % 3),
      60, 97, 80, 60 * 60 * 20, 500, '广东省', '深圳市', 114 + (i % 100) / 1000.0, 22.5
    from generate_series(1, ${machines}) i
    join production_lines l on l.sort = 1 + i % ${lines}`.execute(db);
};
