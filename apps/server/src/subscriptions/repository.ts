import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { announce } from '../foundation/db/notices.ts';

export interface FollowSettingsRow {
  realTimeReminder: boolean;
  threeParameters: boolean;
  alarm: boolean;
  daily: boolean;
  week: boolean;
  timeLength: number;
}

/** A user's follow of a machine, with its settings. */
export interface Follow extends FollowSettingsRow {
  id: number;
}

/** A machine as the pickers name it: its SN and nickname ('' when none). */
export interface MachineName {
  snCode: string;
  nickSnCode: string;
}

const machineNameOf = (r: { sn_code: string; nick_sn_code: string }): MachineName => ({
  snCode: r.sn_code,
  nickSnCode: r.nick_sn_code,
});

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The lines filter: null is every line (an admin). */
const inLines = (lineIds: number[] | null) =>
  lineIds === null
    ? sql<boolean>`true`
    : lineIds.length
      ? sql<boolean>`d.line_id in (${sql.join(lineIds)})`
      : sql<boolean>`false`;

/** SN or nickname holds the search (no search: every machine). */
const matching = (search: string | undefined) =>
  search
    ? sql<boolean>`(d.sn_code ilike ${`%${escapeLike(search)}%`} or d.nick_sn_code ilike ${`%${escapeLike(search)}%`})`
    : sql<boolean>`true`;

/**
 * A change to a user's follows, and in its transaction the notice that has every other instance
 * forget the user's list marks (devices/follow-marks.ts): it goes out exactly when the change
 * commits.
 */
const changingFollows = <T>(db: Db, userId: number, write: (tx: Db) => Promise<T>): Promise<T> =>
  db.transaction().execute(async (tx) => {
    const result = await write(tx);
    await announce(tx, 'follows_changed', { users: [userId] });
    return result;
  });

/** Rolls a delete back when one of its targets was not there. */
class FollowsGone extends Error {}

export const createSubscriptionsRepository = (db: Db) => ({
  /** Follows the machines with these settings (a follow that exists takes the new settings). */
  upsert: (userId: number, sns: string[], s: FollowSettingsRow): Promise<number> =>
    changingFollows(db, userId, async (tx) => {
      const values = {
        real_time_reminder: s.realTimeReminder,
        three_parameters: s.threeParameters,
        alarm: s.alarm,
        daily: s.daily,
        week: s.week,
        time_length: s.timeLength,
      };
      const rows = await tx
        .insertInto('user_follows')
        .values(sns.map((sn) => ({ user_id: userId, sn_code: sn, ...values })))
        .onConflict((oc) => oc.columns(['user_id', 'sn_code']).doUpdateSet(values))
        .returning('id')
        .execute();
      return rows.length;
    }),

  deleteBySns: (userId: number, sns: string[]): Promise<number> =>
    changingFollows(db, userId, async (tx) => {
      const rows = await tx
        .deleteFrom('user_follows')
        .where('user_id', '=', userId)
        .where('sn_code', 'in', sns)
        .returning('id')
        .execute();
      return rows.length;
    }),

  /**
   * Deletes these follows of the user, all or none: null (nothing deleted) when one of the ids is
   * not theirs or no longer there.
   */
  deleteByIds: async (userId: number, ids: number[]): Promise<number | null> => {
    const wanted = new Set(ids).size;
    try {
      return await changingFollows(db, userId, async (tx) => {
        const rows = await tx
          .deleteFrom('user_follows')
          .where('user_id', '=', userId)
          .where('id', 'in', ids)
          .returning('id')
          .execute();
        if (rows.length !== wanted) throw new FollowsGone();
        return rows.length;
      });
    } catch (error) {
      if (error instanceof FollowsGone) return null;
      throw error;
    }
  },

  async find(userId: number, sn: string): Promise<Follow | undefined> {
    const row = await db
      .selectFrom('user_follows')
      .selectAll()
      .where('user_id', '=', userId)
      .where('sn_code', '=', sn)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        realTimeReminder: row.real_time_reminder,
        threeParameters: row.three_parameters,
        alarm: row.alarm,
        daily: row.daily,
        week: row.week,
        timeLength: row.time_length,
      }
    );
  },

  /** Follow ids of some machines (the list's rows), by SN. */
  async idsOf(userId: number, sns: string[]): Promise<Map<string, number>> {
    if (sns.length === 0) return new Map();
    const rows = await db
      .selectFrom('user_follows')
      .select(['sn_code', 'id'])
      .where('user_id', '=', userId)
      .where('sn_code', 'in', sns)
      .execute();
    return new Map(rows.map((r) => [r.sn_code, r.id]));
  },

  /** The product groups of the lines (the picker's dictionary), by name. */
  async groupNames(lineIds: number[] | null): Promise<string[]> {
    const rows = await sql<{ name: string }>`
      select distinct g.name from product_groups g join devices d on d.group_id = g.id
      where ${inLines(lineIds)} order by g.name`.execute(db);
    return rows.rows.map((r) => r.name);
  },

  /** SN codes of the lines matching a search, in SN order, one chunk. */
  async snCodes(
    lineIds: number[] | null,
    search: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ machines: MachineName[]; total: number }> {
    const match = matching(search);
    const [rows, total] = await Promise.all([
      sql<{ sn_code: string; nick_sn_code: string }>`
        select d.sn_code, d.nick_sn_code from devices d where ${inLines(lineIds)} and ${match}
        order by d.sn_code limit ${limit} offset ${offset}`.execute(db),
      sql<{
        n: number;
      }>`select count(*)::int as n from devices d where ${inLines(lineIds)} and ${match}`.execute(
        db,
      ),
    ]);
    return { machines: rows.rows.map(machineNameOf), total: total.rows[0]?.n ?? 0 };
  },

  /** The machines a user follows on the lines, matching a search, in SN order. */
  async followedSnCodes(
    userId: number,
    lineIds: number[] | null,
    search: string | undefined,
    limit: number,
  ): Promise<MachineName[]> {
    const rows = await sql<{ sn_code: string; nick_sn_code: string }>`
      select d.sn_code, d.nick_sn_code from user_follows f join devices d on d.sn_code = f.sn_code
      where f.user_id = ${userId} and ${inLines(lineIds)} and ${matching(search)}
      order by d.sn_code limit ${limit}`.execute(db);
    return rows.rows.map(machineNameOf);
  },
});

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
