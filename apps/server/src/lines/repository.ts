import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { writeAudit, type AuditRecord } from '../foundation/shared/audit.ts';

/** A production line with the number of machines on it. */
export interface LineSummary {
  id: number;
  name: string;
  sort: number;
  machines: number;
}

/** A product group of a line. */
export interface Group {
  id: number;
  lineId: number;
  name: string;
}

/** A product group with the number of machines in it. */
export type GroupSummary = Group & { machines: number };

/** A line with its groups, each with its machine count. */
export type LineWithGroups = LineSummary & { groups: GroupSummary[] };

type Line = Omit<LineSummary, 'machines'>;

/**
 * A group as the audit log has always recorded it: its row (`line_id`), so entries before and
 * after issue 26 read alike on the audit page.
 */
export const groupAsRecorded = ({ lineId, ...group }: Group & { machines?: number }) => ({
  id: group.id,
  line_id: lineId,
  name: group.name,
  ...(group.machines !== undefined ? { machines: group.machines } : {}),
});

/** `production_lines` and `product_groups`: this is their only writer (docs/architecture.md). */
const repositoryOn = (db: Db) => ({
  audit: (entry: AuditRecord) => writeAudit(db, entry),

  lines: (): Promise<LineSummary[]> =>
    db
      .selectFrom('production_lines as l')
      .select([
        'l.id',
        'l.name',
        'l.sort',
        sql<number>`(select count(*)::int from devices d where d.line_id = l.id)`.as('machines'),
      ])
      .orderBy('l.sort')
      .orderBy('l.id')
      .execute(),

  groups: async (): Promise<GroupSummary[]> =>
    (
      await db
        .selectFrom('product_groups as g')
        .select([
          'g.id',
          'g.line_id',
          'g.name',
          sql<number>`(select count(*)::int from devices d where d.group_id = g.id)`.as('machines'),
        ])
        .orderBy('g.id')
        .execute()
    ).map((g) => ({ id: g.id, lineId: g.line_id, name: g.name, machines: g.machines })),

  line: (id: number): Promise<Line | undefined> =>
    db
      .selectFrom('production_lines')
      .select(['id', 'name', 'sort'])
      .where('id', '=', id)
      .executeTakeFirst(),

  lineByName: (name: string): Promise<Line | undefined> =>
    db
      .selectFrom('production_lines')
      .select(['id', 'name', 'sort'])
      .where('name', '=', name)
      .executeTakeFirst(),

  existingLineIds: async (ids: readonly number[]) =>
    ids.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db.selectFrom('production_lines').select('id').where('id', 'in', ids).execute()
          ).map((r) => r.id),
        ),

  insertLine: async (name: string, sort: number) =>
    (
      await db
        .insertInto('production_lines')
        .values({ name, sort })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,

  updateLine: (id: number, name: string, sort: number) =>
    db.updateTable('production_lines').set({ name, sort }).where('id', '=', id).execute(),

  deleteLine: (id: number) => db.deleteFrom('production_lines').where('id', '=', id).execute(),

  group: async (id: number): Promise<Group | undefined> => {
    const row = await db
      .selectFrom('product_groups')
      .select(['id', 'line_id', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { id: row.id, lineId: row.line_id, name: row.name };
  },

  groupIdByName: async (lineId: number, name: string) =>
    (
      await db
        .selectFrom('product_groups')
        .select('id')
        .where('line_id', '=', lineId)
        .where('name', '=', name)
        .executeTakeFirst()
    )?.id,

  insertGroup: async (lineId: number, name: string) =>
    (
      await db
        .insertInto('product_groups')
        .values({ line_id: lineId, name })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,

  updateGroup: (id: number, lineId: number, name: string) =>
    db.updateTable('product_groups').set({ line_id: lineId, name }).where('id', '=', id).execute(),

  deleteGroup: (id: number) => db.deleteFrom('product_groups').where('id', '=', id).execute(),
});

export type LinesRepository = ReturnType<typeof repositoryOn> & {
  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: LinesRepository) => Promise<T>): Promise<T>;
};

export const createLinesRepository = (db: Db): LinesRepository => ({
  ...repositoryOn(db),
  transaction: (work) => db.transaction().execute((tx) => work(createLinesRepository(tx))),
});
