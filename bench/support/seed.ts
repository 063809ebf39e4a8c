import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import { hashSecret } from '../../apps/server/src/shared/secrets.ts';

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

/** The bench factory's gateway ids (`BENCH0000000`, …) and machine SNs (`B-g-m`). */
export const benchGatewayId = (g: number) => `BENCH${String(g).padStart(7, '0')}`;
export const benchSn = (g: number, m: number) => `B-${g}-${m}`;

/**
 * One line with `gateways` × `machines` machines, every gateway signing in with `secret`, and the
 * admin `bench` with `password`: through the server's own migrations and query layer.
 */
export const seedBenchFactory = async (
  db: Db,
  {
    gateways,
    machines,
    secret,
    password,
  }: {
    gateways: number;
    machines: number;
    secret: string;
    password: string;
  },
) => {
  const hash = await hashSecret(secret);
  const line = await db
    .insertInto('production_lines')
    .values({ name: '基准线' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      psn_code: 'bench',
      name: 'bench',
      password_hash: await hashSecret(password),
      is_admin: true,
    })
    .execute();
  const ids = Array.from({ length: gateways }, (_, g) => benchGatewayId(g));
  await db
    .insertInto('gateways')
    .values(ids.map((id) => ({ id, password_hash: hash })))
    .execute();
  for (let g = 0; g < gateways; g++) {
    await db
      .insertInto('devices')
      .values(
        Array.from({ length: machines }, (_, m) => ({
          sn_code: benchSn(g, m),
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
