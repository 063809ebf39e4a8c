import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type { Database } from '../foundation/db/schema.ts';
import { figuresFromRow, type Figures } from '../foundation/shared/metrics.ts';

/** Which machines the menu counts. */
export interface DeviceFilter {
  /** null: every line (an admin). */
  lineIds: number[] | null;
  followedBy?: number | undefined;
}

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

  /**
   * The lines a user may see as the database says now, admin flag included (a socket's session
   * carries the flag as it was at the handshake); none for a user who is gone.
   */
  async currentLineIds(userId: number): Promise<number[] | null> {
    const user = await db
      .selectFrom('users')
      .select('is_admin')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return [];
    return this.visibleLineIds(userId, user.is_admin);
  },

  async countDevices(filter: DeviceFilter): Promise<number> {
    const row = await filtered(db, filter)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** The machines a user follows. */
  async followed(userId: number): Promise<Set<string>> {
    const rows = await db
      .selectFrom('user_follows')
      .select('sn_code')
      .where('user_id', '=', userId)
      .execute();
    return new Set(rows.map((r) => r.sn_code));
  },

  /** Some machines' figures of one day (rollup_day by primary key); none: no rollup that day. */
  async dayFigures(sns: string[], day: string): Promise<Map<string, Figures>> {
    if (sns.length === 0) return new Map();
    const rows = await db
      .selectFrom('rollup_day')
      .selectAll()
      .where('sn_code', 'in', sns)
      .where('day', '=', day)
      .execute();
    return new Map(rows.map((r) => [r.sn_code, figuresFromRow(r)]));
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
});

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
