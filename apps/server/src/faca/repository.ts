import { CA_STATUS, TASK_STATUS } from '@linewatch/contracts/rules/ca-statuses';
import { FACA_STATUS, type FacaStatus } from '@linewatch/contracts/rules/question-statuses';
import { sql, type Insertable, type RawBuilder, type Updateable } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type {
  FacaCasTable,
  FacaFasTable,
  FacaQuestionsTable,
} from '../foundation/db/schema/faca.ts';
import type { Executor } from '../notifications/service.ts';

/** A pending CA (rules/ca-statuses.ts), inline in SQL. */
const pending = sql.lit(CA_STATUS.pending);

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/*
 * The status flags of a question (contracts rules/question-statuses.ts), as SQL over `q` so the list can both
 * show and filter by them. `today` is the factory day now: a CA due before it and still pending
 * is overdue. A CA whose handlers are all gone (no user left) counts as unassigned, and so does
 * an FA with no CA yet.
 */
const flag = {
  hasFa: () => sql<boolean>`exists (select 1 from faca_fas f where f.faca_id = q.id)`,
  unassigned: () => sql<boolean>`(
    exists (select 1 from faca_fas f where f.faca_id = q.id
            and not exists (select 1 from faca_cas c where c.fa_id = f.id))
    or exists (select 1 from faca_cas c where c.faca_id = q.id
               and not exists (select 1 from users u where u.id = any(c.handler_ids))))`,
  overdue: (today: string) => sql<boolean>`exists (select 1 from faca_cas c where c.faca_id = q.id
    and c.status = ${pending} and c.resolving_time < ${today})`,
};
const flagFilter: Record<`${FacaStatus}`, (today: string) => RawBuilder<boolean>> = {
  [FACA_STATUS.unhandled]: () => sql<boolean>`not ${flag.hasFa()}`,
  [FACA_STATUS.faca]: () => flag.hasFa(),
  [FACA_STATUS.unassigned]: () => flag.unassigned(),
  [FACA_STATUS.overdue]: (today: string) => flag.overdue(today),
};

export interface QuestionFilter {
  /** null: every line (an admin). */
  lineIds: number[] | null;
  snCode?: string | undefined;
  warningContent?: string | undefined;
  workmanship?: string | undefined;
  facaStatus?: `${FacaStatus}` | undefined;
  today: string;
}

export interface TaskFilter {
  userId: number;
  lineIds: number[] | null;
  snCode?: string | undefined;
  taskStatus?: '0' | '1' | undefined;
  treatment?: '0' | '1' | '2' | undefined;
  today: string;
}

export const createFacaRepository = (db: Db) => {
  const questions = (f: QuestionFilter) => {
    let q = db
      .selectFrom('faca_questions as q')
      .innerJoin('devices as d', 'd.sn_code', 'q.sn_code');
    if (f.lineIds)
      q = f.lineIds.length ? q.where('d.line_id', 'in', f.lineIds) : q.where(sql<boolean>`false`);
    if (f.snCode) q = q.where('q.sn_code', 'ilike', escapeLike(f.snCode));
    if (f.warningContent) q = q.where('q.warning_content', 'ilike', escapeLike(f.warningContent));
    if (f.workmanship) q = q.where('q.workmanship', '=', f.workmanship);
    if (f.facaStatus) q = q.where(flagFilter[f.facaStatus](f.today));
    return q;
  };

  const questionColumns = (today: string) =>
    [
      'q.id',
      'q.sn_code',
      'q.workmanship',
      'q.count',
      'q.warning_content',
      'q.faca_description',
      'q.time_length',
      'q.influence_parameters',
      'q.data_from',
      'q.pic_ids',
      'q.video_ids',
      'q.update_user',
      'q.update_time',
      flag.hasFa().as('has_fa'),
      flag.unassigned().as('unassigned'),
      flag.overdue(today).as('overdue'),
    ] as const;

  const tasks = (f: TaskFilter) => {
    let q = db
      .selectFrom('faca_cas as c')
      .innerJoin('faca_questions as q', 'q.id', 'c.faca_id')
      .innerJoin('faca_fas as f', 'f.id', 'c.fa_id')
      .innerJoin('devices as d', 'd.sn_code', 'q.sn_code')
      .where(sql<boolean>`${f.userId} = any(c.handler_ids)`);
    if (f.lineIds)
      q = f.lineIds.length ? q.where('d.line_id', 'in', f.lineIds) : q.where(sql<boolean>`false`);
    if (f.snCode) q = q.where('q.sn_code', 'ilike', escapeLike(f.snCode));
    if (f.taskStatus)
      q = q.where(
        'c.status',
        Number(f.taskStatus) === TASK_STATUS.pending ? '=' : '<>',
        CA_STATUS.pending,
      );
    if (f.treatment) q = q.where('c.status', '=', Number(f.treatment));
    return q;
  };

  return {
    async countQuestions(f: QuestionFilter): Promise<number> {
      const row = await questions(f)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    pageQuestions: (f: QuestionFilter, offset: number, limit: number) =>
      questions(f)
        .select(questionColumns(f.today))
        .orderBy('q.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),

    findQuestion: (id: number, today: string, x: Executor = db) =>
      x
        .selectFrom('faca_questions as q')
        .select(questionColumns(today))
        .where('q.id', '=', id)
        .executeTakeFirst(),

    fasOf: (facaIds: number[]) =>
      facaIds.length
        ? db
            .selectFrom('faca_fas')
            .selectAll()
            .where('faca_id', 'in', facaIds)
            .orderBy('fa_num')
            .execute()
        : Promise.resolve([]),

    casOf: (facaIds: number[]) =>
      facaIds.length
        ? db
            .selectFrom('faca_cas')
            .selectAll()
            .where('faca_id', 'in', facaIds)
            .orderBy('fa_id')
            .orderBy('seq')
            .execute()
        : Promise.resolve([]),

    findFa: (id: number, x: Executor = db) =>
      x.selectFrom('faca_fas').selectAll().where('id', '=', id).executeTakeFirst(),

    findCa: (id: number, x: Executor = db) =>
      x.selectFrom('faca_cas').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Names of users by id (handlers); ids of users that are gone are simply absent. */
    userNames: async (ids: number[]): Promise<Map<number, string>> => {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'name', 'nick_name'])
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r.nick_name || r.name]));
    },

    /** Users who may see a line: admins and those granted it. */
    usersOfLine: (lineId: number) =>
      db
        .selectFrom('users as u')
        .select(['u.id', 'u.name', 'u.nick_name'])
        .where((eb) =>
          eb.or([
            eb('u.is_admin', '=', true),
            eb.exists(
              eb
                .selectFrom('user_lines as ul')
                .whereRef('ul.user_id', '=', 'u.id')
                .where('ul.line_id', '=', lineId)
                .select('ul.line_id'),
            ),
          ]),
        )
        .orderBy('u.name')
        .execute(),

    insertQuestion: (x: Executor, row: Insertable<FacaQuestionsTable>) =>
      x.insertInto('faca_questions').values(row).returning('id').executeTakeFirstOrThrow(),
    updateQuestion: (x: Executor, id: number, row: Updateable<FacaQuestionsTable>) =>
      x.updateTable('faca_questions').set(row).where('id', '=', id).execute(),

    /** The next FA number of a question (1, 2, …); the unique key settles a race. */
    nextFaNum: async (x: Executor, facaId: number) =>
      (
        await x
          .selectFrom('faca_fas')
          .select(sql<number>`coalesce(max(fa_num), 0)::int + 1`.as('n'))
          .where('faca_id', '=', facaId)
          .executeTakeFirstOrThrow()
      ).n,
    insertFa: (x: Executor, row: Insertable<FacaFasTable>) =>
      x.insertInto('faca_fas').values(row).returning('id').executeTakeFirstOrThrow(),
    updateFa: (x: Executor, id: number, row: Updateable<FacaFasTable>) =>
      x.updateTable('faca_fas').set(row).where('id', '=', id).execute(),

    nextCaSeq: async (x: Executor, faId: number) =>
      (
        await x
          .selectFrom('faca_cas')
          .select(sql<number>`coalesce(max(seq), 0)::int + 1`.as('n'))
          .where('fa_id', '=', faId)
          .executeTakeFirstOrThrow()
      ).n,
    insertCa: (x: Executor, row: Insertable<FacaCasTable>) =>
      x.insertInto('faca_cas').values(row).returning('id').executeTakeFirstOrThrow(),
    updateCa: (x: Executor, id: number, row: Updateable<FacaCasTable>) =>
      x.updateTable('faca_cas').set(row).where('id', '=', id).execute(),

    async countTasks(f: TaskFilter): Promise<number> {
      const row = await tasks(f)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    pageTasks: (f: TaskFilter, offset: number, limit: number) =>
      tasks(f)
        .select([
          'c.id',
          'c.faca_id',
          'c.fa_id',
          'c.seq',
          'f.fa_num',
          'q.sn_code',
          'c.status',
          'c.handler_ids',
          'c.ca_description',
          'c.resolving_time',
        ])
        // Pending first, the most urgent on top.
        .orderBy(sql`c.status <> ${pending}`)
        .orderBy('c.resolving_time')
        .orderBy('c.id')
        .offset(offset)
        .limit(limit)
        .execute(),

    options: (table: 'faca_workmanships' | 'faca_influence_parameters') => ({
      count: async () =>
        (
          await db
            .selectFrom(table)
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      page: (offset: number, limit: number) =>
        db
          .selectFrom(table)
          .select(['id', 'name'])
          .orderBy('id')
          .offset(offset)
          .limit(limit)
          .execute(),
      exists: async (names: string[]) =>
        (await db.selectFrom(table).select('name').where('name', 'in', names).execute()).length ===
        new Set(names).size,
    }),
  };
};

export type FacaRepository = ReturnType<typeof createFacaRepository>;
