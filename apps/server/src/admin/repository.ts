import type { AdminMachine, AdminUser } from '@linewatch/contracts/admin';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { announce } from '../foundation/db/notices.ts';
import { writeAudit, type AuditRecord } from '../foundation/shared/audit.ts';
import type { Database } from '../foundation/db/schema.ts';

/** A machine's administered columns (never its gateway binding, position or PLC address). */
export interface MachineColumns {
  device_name: string;
  nick_sn_code: string;
  nick_device_name: string;
  machine_name: string;
  project_name: string;
  line_id: number;
  group_id: number | null;
  country: string;
  province: string;
  city: string;
  ppm_target: number;
  yield_target: number;
  superiority_rate_target: number;
  use_rate_target: number;
  produce_target_number: number;
  ng_target_number: number;
  capacity_target: number;
  max_ppm: number | null;
  plc_model: string;
}

/** Postgres allows 65,535 parameters a statement: 500 machines of ~20 columns stay well under. */
const CHUNK = 500;

const releaseIdentities = async (db: Kysely<Database>, userId: number) =>
  (
    await db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .returning('provider')
      .execute()
  )
    .map((r) => r.provider)
    .sort();

const repositoryOn = (db: Db) => {
  const usersQuery = () =>
    db
      .selectFrom('users')
      .select([
        'users.id',
        'users.psn_code',
        'users.name',
        'users.nick_name',
        'users.mobile',
        'users.is_admin',
        'users.disabled',
        'users.created_at',
        sql<
          number[]
        >`coalesce((select array_agg(ul.line_id order by ul.line_id) from user_lines ul where ul.user_id = users.id), '{}')`.as(
          'line_ids',
        ),
      ]);
  type UserRow = Awaited<ReturnType<ReturnType<typeof usersQuery>['executeTakeFirstOrThrow']>>;
  const toUser = (r: UserRow): AdminUser => ({
    id: r.id,
    psnCode: r.psn_code,
    name: r.name,
    nickName: r.nick_name,
    mobile: r.mobile,
    isAdmin: r.is_admin,
    disabled: r.disabled,
    lineIds: r.line_ids.map(Number),
    createdAt: r.created_at.toISOString(),
  });

  const machinesQuery = () =>
    db
      .selectFrom('devices as d')
      .innerJoin('production_lines as l', 'l.id', 'd.line_id')
      .leftJoin('product_groups as g', 'g.id', 'd.group_id')
      .selectAll('d')
      .select(['l.name as line_name', 'g.name as group_name']);
  type MachineRow = Awaited<
    ReturnType<ReturnType<typeof machinesQuery>['executeTakeFirstOrThrow']>
  >;
  const toMachine = (r: MachineRow): AdminMachine => ({
    snCode: r.sn_code,
    lineId: r.line_id,
    lineName: r.line_name,
    groupId: r.group_id,
    groupName: r.group_name ?? '',
    deviceName: r.device_name,
    nickSnCode: r.nick_sn_code,
    nickDeviceName: r.nick_device_name,
    machineName: r.machine_name,
    projectName: r.project_name,
    country: r.country,
    province: r.province,
    city: r.city,
    ppmTarget: r.ppm_target,
    yieldTarget: r.yield_target,
    superiorityRateTarget: r.superiority_rate_target,
    useRateTarget: r.use_rate_target,
    produceTargetNumber: r.produce_target_number,
    ngTargetNumber: r.ng_target_number,
    capacityTarget: r.capacity_target,
    maxPpm: r.max_ppm,
    plcModel: r.plc_model ?? '',
    gatewayId: r.gateway_id,
  });

  return {
    audit: (entry: AuditRecord) => writeAudit(db, entry),

    auditPage: async (offset: number, limit: number) => {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('audit_log')
          .selectAll()
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    // users ----------------------------------------------------------------------------------

    users: async () => (await usersQuery().orderBy('users.id').execute()).map(toUser),

    user: async (id: number) => {
      const row = await usersQuery().where('users.id', '=', id).executeTakeFirst();
      return row ? toUser(row) : undefined;
    },

    userIdByPsnCode: async (psnCode: string) =>
      (await db.selectFrom('users').select('id').where('psn_code', '=', psnCode).executeTakeFirst())
        ?.id,

    insertUser: async (user: {
      psnCode: string;
      name: string;
      nickName: string;
      mobile: string | null;
      passwordHash: string;
      isAdmin: boolean;
    }) =>
      (
        await db
          .insertInto('users')
          .values({
            psn_code: user.psnCode,
            name: user.name,
            nick_name: user.nickName,
            mobile: user.mobile,
            password_hash: user.passwordHash,
            is_admin: user.isAdmin,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    updateUser: (
      id: number,
      patch: Partial<{ name: string; nick_name: string; is_admin: boolean; password_hash: string }>,
    ) =>
      // Granting lines alone changes no column here (an empty SET is not SQL).
      Object.keys(patch).length === 0
        ? Promise.resolve()
        : db.updateTable('users').set(patch).where('id', '=', id).execute(),

    /**
     * Tells every instance (identity's session cache) that the user's name, rights or state
     * changed; in the change's transaction, it goes out when the change commits.
     */
    announceUserChanged: (id: number) => announce(db, 'users_changed', { users: [id] }),

    /** Disabling also releases the messaging identities, so no silent sign-in brings them back. */
    setDisabled: async (id: number, disabled: boolean) => {
      const apply = async (tx: Kysely<Database>) => {
        await tx.updateTable('users').set({ disabled }).where('id', '=', id).execute();
        if (disabled) await releaseIdentities(tx, id);
      };
      // The CLI may run this inside its caller's transaction already.
      await (db.isTransaction ? apply(db) : db.transaction().execute(apply));
    },

    /**
     * Unbinds every WeChat / DingTalk identity of the user (a password reset): whoever bound their
     * own messaging account with the old password signs in silently no more. Returns the
     * providers unbound.
     */
    releaseIdentities: (id: number) => releaseIdentities(db, id),

    setUserLines: async (userId: number, lineIds: readonly number[]) => {
      await db.deleteFrom('user_lines').where('user_id', '=', userId).execute();
      if (lineIds.length > 0)
        await db
          .insertInto('user_lines')
          .values(lineIds.map((line_id) => ({ user_id: userId, line_id })))
          .execute();
    },

    // applications ---------------------------------------------------------------------------

    applications: () =>
      db
        .selectFrom('account_applications')
        .select([
          'id',
          'name',
          'psn_code',
          'mobile',
          'status',
          'reason',
          'created_at',
          'decided_at',
        ])
        .orderBy(sql`status = 'pending'`, 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute(),

    application: (id: number) =>
      db.selectFrom('account_applications').selectAll().where('id', '=', id).executeTakeFirst(),

    decideApplication: (
      id: number,
      decision: { status: 'approved' | 'rejected'; reason: string; userId: number | null },
    ) =>
      db
        .updateTable('account_applications')
        .set({
          status: decision.status,
          reason: decision.reason,
          user_id: decision.userId,
          decided_at: new Date(),
        })
        .where('id', '=', id)
        .execute(),

    // lines and groups -----------------------------------------------------------------------

    lines: () =>
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

    groups: () =>
      db
        .selectFrom('product_groups as g')
        .select([
          'g.id',
          'g.line_id',
          'g.name',
          sql<number>`(select count(*)::int from devices d where d.group_id = g.id)`.as('machines'),
        ])
        .orderBy('g.id')
        .execute(),

    line: (id: number) =>
      db.selectFrom('production_lines').selectAll().where('id', '=', id).executeTakeFirst(),

    lineByName: (name: string) =>
      db.selectFrom('production_lines').selectAll().where('name', '=', name).executeTakeFirst(),

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

    group: (id: number) =>
      db.selectFrom('product_groups').selectAll().where('id', '=', id).executeTakeFirst(),

    groupByName: (lineId: number, name: string) =>
      db
        .selectFrom('product_groups')
        .selectAll()
        .where('line_id', '=', lineId)
        .where('name', '=', name)
        .executeTakeFirst(),

    insertGroup: async (lineId: number, name: string) =>
      (
        await db
          .insertInto('product_groups')
          .values({ line_id: lineId, name })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    updateGroup: (id: number, lineId: number, name: string) =>
      db
        .updateTable('product_groups')
        .set({ line_id: lineId, name })
        .where('id', '=', id)
        .execute(),

    deleteGroup: (id: number) => db.deleteFrom('product_groups').where('id', '=', id).execute(),

    // machines -------------------------------------------------------------------------------

    machinePage: async (
      filter: { keyword?: string | undefined; lineId?: number | undefined },
      offset: number,
      limit: number,
    ) => {
      let q = machinesQuery();
      if (filter.lineId) q = q.where('d.line_id', '=', filter.lineId);
      if (filter.keyword) {
        const like = `%${filter.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([
            eb('d.sn_code', 'ilike', like),
            eb('d.device_name', 'ilike', like),
            eb('d.nick_sn_code', 'ilike', like),
          ]),
        );
      }
      const [rows, total] = await Promise.all([
        q.orderBy('d.sn_code').offset(offset).limit(limit).execute(),
        q
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map(toMachine), total: Number(total.n) };
    },

    allMachines: async () => (await machinesQuery().orderBy('d.sn_code').execute()).map(toMachine),

    machine: async (sn: string) => {
      const row = await machinesQuery().where('d.sn_code', '=', sn).executeTakeFirst();
      return row ? toMachine(row) : undefined;
    },

    existingSns: async (sns: readonly string[]) => {
      const found = new Set<string>();
      for (let i = 0; i < sns.length; i += CHUNK) {
        const rows = await db
          .selectFrom('devices')
          .select('sn_code')
          .where('sn_code', 'in', sns.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) found.add(r.sn_code);
      }
      return found;
    },

    insertMachine: (sn: string, columns: MachineColumns) =>
      db
        .insertInto('devices')
        .values({ sn_code: sn, ...columns })
        .execute(),

    updateMachine: (sn: string, columns: MachineColumns) =>
      db.updateTable('devices').set(columns).where('sn_code', '=', sn).execute(),

    /** Creates or updates many machines by SN (the import), in chunks. */
    upsertMachines: async (machines: readonly { sn: string; columns: MachineColumns }[]) => {
      for (let i = 0; i < machines.length; i += CHUNK) {
        await db
          .insertInto('devices')
          .values(machines.slice(i, i + CHUNK).map((m) => ({ sn_code: m.sn, ...m.columns })))
          .onConflict((oc) =>
            oc.column('sn_code').doUpdateSet((eb) => ({
              device_name: eb.ref('excluded.device_name'),
              nick_sn_code: eb.ref('excluded.nick_sn_code'),
              nick_device_name: eb.ref('excluded.nick_device_name'),
              machine_name: eb.ref('excluded.machine_name'),
              project_name: eb.ref('excluded.project_name'),
              line_id: eb.ref('excluded.line_id'),
              group_id: eb.ref('excluded.group_id'),
              country: eb.ref('excluded.country'),
              province: eb.ref('excluded.province'),
              city: eb.ref('excluded.city'),
              ppm_target: eb.ref('excluded.ppm_target'),
              yield_target: eb.ref('excluded.yield_target'),
              superiority_rate_target: eb.ref('excluded.superiority_rate_target'),
              use_rate_target: eb.ref('excluded.use_rate_target'),
              produce_target_number: eb.ref('excluded.produce_target_number'),
              ng_target_number: eb.ref('excluded.ng_target_number'),
              capacity_target: eb.ref('excluded.capacity_target'),
              max_ppm: eb.ref('excluded.max_ppm'),
              plc_model: eb.ref('excluded.plc_model'),
            })),
          )
          .execute();
      }
    },

    deleteMachine: (sn: string) => db.deleteFrom('devices').where('sn_code', '=', sn).execute(),
  };
};

export type AdminRepository = ReturnType<typeof repositoryOn> & {
  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: AdminRepository) => Promise<T>): Promise<T>;
};

export const createAdminRepository = (db: Db): AdminRepository => ({
  ...repositoryOn(db),
  transaction: (work) => db.transaction().execute((tx) => work(createAdminRepository(tx))),
});
