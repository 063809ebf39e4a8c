import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ADDED_COLUMNS } from '../shared/metrics.ts';

export interface DeviceFilter {
  /** null: every line (an admin). */
  lineIds: number[] | null;
  followedBy?: number | undefined;
  lineName?: string | undefined;
  groupName?: string | undefined;
  search?: string | undefined;
  /** Only these machines (a live status filter); an empty list matches none. */
  snIn?: string[] | undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type DeviceQuery = SelectQueryBuilder<
  Database & {
    d: Database['devices'];
    l: Database['production_lines'];
    g: Database['product_groups'];
  },
  'd' | 'l' | 'g',
  object
>;

const filtered = (db: Db, f: DeviceFilter): DeviceQuery => {
  let q = db
    .selectFrom('devices as d')
    .innerJoin('production_lines as l', 'l.id', 'd.line_id')
    .leftJoin('product_groups as g', 'g.id', 'd.group_id') as unknown as DeviceQuery;
  if (f.lineIds)
    q = f.lineIds.length ? q.where('d.line_id', 'in', f.lineIds) : q.where(sql<boolean>`false`);
  if (f.followedBy !== undefined) {
    const userId = f.followedBy;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_follows as uf')
          .whereRef('uf.sn_code', '=', 'd.sn_code')
          .where('uf.user_id', '=', userId)
          .select('uf.sn_code'),
      ),
    );
  }
  if (f.lineName) q = q.where('l.name', '=', f.lineName);
  if (f.groupName) q = q.where('g.name', '=', f.groupName);
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('d.sn_code', 'ilike', pattern),
        eb('d.nick_sn_code', 'ilike', pattern),
        eb('d.device_name', 'ilike', pattern),
      ]),
    );
  }
  if (f.snIn) {
    const sns = f.snIn;
    q = sns.length ? q.where('d.sn_code', 'in', sns) : q.where(sql<boolean>`false`);
  }
  return q;
};

export const createDevicesRepository = (db: Db) => ({
  /** The lines a user may see; null for an admin (every line). */
  async visibleLineIds(userId: number, isAdmin: boolean): Promise<number[] | null> {
    if (isAdmin) return null;
    const rows = await db
      .selectFrom('user_lines')
      .select('line_id')
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => r.line_id);
  },

  async countDevices(filter: DeviceFilter): Promise<number> {
    const row = await filtered(db, filter)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** The SNs of the machines a filter matches (the status summary counts them by live state). */
  async deviceSns(filter: DeviceFilter): Promise<string[]> {
    const rows = await filtered(db, filter).select('d.sn_code').execute();
    return rows.map((r) => r.sn_code);
  },

  /**
   * A page of machines; within a line, those in `faultFirst` (in fault now) come first. The page
   * is chosen on the devices alone (a sort of SNs), and only its rows are joined with their day's
   * rollup and follow mark: with 10,000 machines, joining every machine before the sort cost
   * hundreds of ms a page.
   */
  pageDevices(
    filter: DeviceFilter,
    day: string,
    userId: number,
    offset: number,
    limit: number,
    faultFirst: string[] = [],
  ) {
    const faultRank = faultFirst.length
      ? sql<number>`case when d.sn_code in (${sql.join(faultFirst.map((sn) => sql`${sn}`))}) then 0 else 1 end`
      : sql<number>`1`;
    const page = filtered(db, filter)
      .select([
        'd.sn_code',
        'l.sort as line_sort',
        'l.id as line_id',
        'l.name as line_name',
        'g.name as group_name',
        faultRank.as('fault_rank'),
      ])
      .orderBy('l.sort')
      .orderBy('l.id')
      .orderBy('fault_rank')
      .orderBy('d.sn_code')
      .offset(offset)
      .limit(limit);
    return db
      .selectFrom(page.as('p'))
      .innerJoin('devices as d', 'd.sn_code', 'p.sn_code')
      .leftJoin('rollup_day as r', (join) =>
        join.onRef('r.sn_code', '=', 'd.sn_code').on('r.day', '=', day),
      )
      .select([
        'd.sn_code',
        'd.nick_sn_code',
        'd.device_name',
        'd.gateway_id',
        'd.ppm_target',
        'd.yield_target',
        'd.superiority_rate_target',
        'd.use_rate_target',
        'd.produce_target_number',
        'd.ng_target_number',
        'p.line_name',
        'p.group_name',
        // The day's figures (figuresFromRow), zero for a machine with no rollup that day.
        ...([...ADDED_COLUMNS, 'max_minute_produced'] as const).map((c) =>
          sql<number>`coalesce(${sql.ref(`r.${c}`)}, 0)`.as(c),
        ),
        sql<boolean>`exists (select 1 from user_follows uf where uf.sn_code = d.sn_code and uf.user_id = ${userId})`.as(
          'is_collect',
        ),
      ])
      .orderBy('p.line_sort')
      .orderBy('p.line_id')
      .orderBy('p.fault_rank')
      .orderBy('d.sn_code')
      .execute();
  },

  /** Machines per line and product group, for the menu. */
  countByGroup(filter: DeviceFilter) {
    return filtered(db, filter)
      .select([
        'l.id as line_id',
        'l.name as line_name',
        'l.sort as line_sort',
        'g.name as group_name',
        sql<number>`count(*)::int`.as('n'),
      ])
      .groupBy(['l.id', 'l.name', 'l.sort', 'g.name'])
      .orderBy('l.sort')
      .orderBy('l.id')
      .orderBy('g.name')
      .execute();
  },

  /** Lines the user may see, even those with no machines yet. */
  visibleLines(lineIds: number[] | null) {
    let q = db.selectFrom('production_lines').select(['id', 'name']).orderBy('sort').orderBy('id');
    if (lineIds) q = lineIds.length ? q.where('id', 'in', lineIds) : q.where(sql<boolean>`false`);
    return q.execute();
  },

  deviceExists: async (sn: string) =>
    (await db
      .selectFrom('devices')
      .select('sn_code')
      .where('sn_code', '=', sn)
      .executeTakeFirst()) !== undefined,
});

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
