import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/foundation/db/database.ts';
import { hashSecret } from '../../apps/server/src/foundation/shared/secrets.ts';

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
 * The bench factory's gateway ids (`BENCH0000000`, …) and machine SNs (`B-g-m`); a tag keeps
 * each run's apart in a schema kept across runs.
 */
const benchGatewayId = (g: number, tag = '') => `BENCH${tag}${String(g).padStart(7, '0')}`;
export const benchSn = (g: number, m: number, tag = '') => `B${tag}-${g}-${m}`;

/**
 * One line with `gateways` × `machines` machines, every gateway signing in with `secret`, and the
 * admin `bench` (BENCH_PASSWORD): through the server's own migrations and query layer.
 */
export const seedBenchFactory = async (
  db: Db,
  {
    gateways,
    machines,
    secret,
    tag = '',
  }: {
    gateways: number;
    machines: number;
    secret: string;
    tag?: string;
  },
) => {
  const hash = await hashSecret(secret);
  const line = await db
    .insertInto('production_lines')
    .values({ name: `基准线${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      psn_code: 'bench',
      name: 'bench',
      password_hash: await hashSecret(BENCH_PASSWORD),
      is_admin: true,
    })
    // A --schema seeded by bench/support has the same user.
    .onConflict((oc) => oc.column('psn_code').doNothing())
    .execute();
  const ids = Array.from({ length: gateways }, (_, g) => benchGatewayId(g, tag));
  await db
    .insertInto('gateways')
    .values(ids.map((id) => ({ id, password_hash: hash })))
    .execute();
  for (let g = 0; g < gateways; g++) {
    await db
      .insertInto('devices')
      .values(
        Array.from({ length: machines }, (_, m) => ({
          sn_code: benchSn(g, m, tag),
          device_name: `基准机${g}-${m}`,
          line_id: line.id,
          gateway_id: ids[g]!,
          produce_target_number: 1000,
        })),
      )
      .execute();
  }
  return ids;
};

/**
 * The admin `bench` and `machines` machines B-000001… on `lines` lines of three product groups
 * each, with targets, placed in ten cities of five provinces; no gateway. In SQL: 10,000 machines in a second.
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
  // Spread over five provinces of China, two cities each, so every level of the map has areas.
  await sql`insert into devices (sn_code, device_name, line_id, group_id, ppm_target, yield_target,
      use_rate_target, produce_target_number, ng_target_number, country, province, city, lng, lat)
    select 'B-' || lpad(i::text, 6, '0'), '基准机' || i, l.id,
      (select g.id from product_groups g where g.line_id = l.id order by g.id limit 1 offset i % 3),
      60, 97, 80, 60 * 60 * 20, 500, '中国', p.province, p.cities[1 + i % 2],
      p.lng + (i % 100) / 1000.0, p.lat
    from generate_series(1, ${machines}) i
    join production_lines l on l.sort = 1 + i % ${lines}
    join (values (0, '广东省', array['深圳市', '东莞市'], 114.0, 22.5),
                 (1, '江苏省', array['苏州市', '南京市'], 120.6, 31.3),
                 (2, '浙江省', array['杭州市', '宁波市'], 120.2, 30.3),
                 (3, '四川省', array['成都市', '绵阳市'], 104.1, 30.7),
                 (4, '上海市', array['上海市', '上海市'], 121.5, 31.2))
      as p(k, province, cities, lng, lat) on p.k = i % 5`.execute(db);
};
