import type { AdminMachine } from '@linewatch/contracts/admin';
import type { Db } from '../foundation/db/database.ts';
import { writeAudit, type AuditRecord } from '../foundation/shared/audit.ts';
import type { Binding, MachineFields } from './types.ts';

const columnsOf = (m: MachineFields) => ({
  device_name: m.deviceName,
  nick_sn_code: m.nickSnCode,
  nick_device_name: m.nickDeviceName,
  machine_name: m.machineName,
  project_name: m.projectName,
  line_id: m.lineId,
  group_id: m.groupId,
  country: m.country,
  province: m.province,
  city: m.city,
  ppm_target: m.ppmTarget,
  yield_target: m.yieldTarget,
  superiority_rate_target: m.superiorityRateTarget,
  use_rate_target: m.useRateTarget,
  produce_target_number: m.produceTargetNumber,
  ng_target_number: m.ngTargetNumber,
  capacity_target: m.capacityTarget,
  max_ppm: m.maxPpm,
  plc_model: m.plcModel,
});

/** Postgres allows 65,535 parameters a statement: 500 machines of ~20 columns stay well under. */
const CHUNK = 500;

/**
 * The `devices` table's rows: this is their only writer outside the migrations and the demo
 * (docs/architecture.md, Domains); the other domains read machines from the registry or their
 * own queries.
 */
const repositoryOn = (db: Db) => {
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

    insertMachine: (sn: string, fields: MachineFields) =>
      db
        .insertInto('devices')
        .values({ sn_code: sn, ...columnsOf(fields) })
        .execute(),

    updateMachine: (sn: string, fields: MachineFields) =>
      db.updateTable('devices').set(columnsOf(fields)).where('sn_code', '=', sn).execute(),

    /** Creates or updates many machines by SN (the import), in chunks. */
    upsertMachines: async (machines: readonly { sn: string; fields: MachineFields }[]) => {
      for (let i = 0; i < machines.length; i += CHUNK) {
        await db
          .insertInto('devices')
          .values(
            machines.slice(i, i + CHUNK).map((m) => ({ sn_code: m.sn, ...columnsOf(m.fields) })),
          )
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

    /**
     * Stores a machine's binding to a gateway's PLC (or clears it: null) with the gateway's audit
     * entry, in one transaction (docs/architecture.md decision 61).
     */
    setBinding: (snCode: string, binding: Binding | null, entry: AuditRecord): Promise<void> =>
      db.transaction().execute(async (tx) => {
        await tx
          .updateTable('devices')
          .set({
            gateway_id: binding?.gatewayId ?? null,
            plc_ip: binding?.plcIp ?? null,
            plc_port: binding?.plcPort ?? null,
            plc_unit_id: binding?.unitId ?? null,
            plc_model: binding?.plcModel ?? null,
          })
          .where('sn_code', '=', snCode)
          .execute();
        await writeAudit(tx, entry);
      }),
  };
};

export type MachinesRepository = ReturnType<typeof repositoryOn> & {
  /** Runs `work` in one transaction with a repository bound to it. */
  transaction<T>(work: (repo: MachinesRepository) => Promise<T>): Promise<T>;
};

export const createMachinesRepository = (db: Db): MachinesRepository => ({
  ...repositoryOn(db),
  transaction: (work) => db.transaction().execute((tx) => work(createMachinesRepository(tx))),
});
