import {
  adminMessages,
  machineImportRow,
  type AdminMachine,
  type ImportRefusal,
  type machineBody,
} from '@linewatch/contracts/admin';
import { ReplyCode } from '@linewatch/contracts/envelope';
import type { Page } from '@linewatch/contracts/rules/paging';
import type { z } from 'zod';
import { DomainError, invalidField, notFound } from '../foundation/http/envelope.ts';
import { auditBy, type Actor, type AuditRecord } from '../foundation/shared/audit.ts';
import type { LinesService } from '../lines/service.ts';
import type { MachinesRepository } from './repository.ts';
import type { Binding, MachineFields } from './types.ts';
import { readMachineSheet, SheetError, writeMachineSheet, type SheetRow } from './sheet.ts';

type Machine = z.output<typeof machineBody>;

export interface MachinesDeps {
  repo: MachinesRepository;
  /** Lines' service: a machine's place is checked against it, the sheet names lines by name. */
  lines: Pick<LinesService, 'checkPlace' | 'lines'>;
  /**
   * After machines or bindings change: the device registry the hot paths and the lists read
   * (core/device-registry.ts).
   */
  reloadMachines: () => Promise<void>;
}

/** The fields as stored: an empty country is 中国. */
const fieldsOf = (
  m: Omit<Machine, 'snCode' | 'lineId' | 'groupId'>,
  lineId: number,
  groupId: number | null,
): MachineFields => ({
  deviceName: m.deviceName,
  nickSnCode: m.nickSnCode,
  nickDeviceName: m.nickDeviceName,
  machineName: m.machineName,
  projectName: m.projectName,
  lineId,
  groupId,
  country: m.country || '中国',
  province: m.province,
  city: m.city,
  ppmTarget: m.ppmTarget,
  yieldTarget: m.yieldTarget,
  superiorityRateTarget: m.superiorityRateTarget,
  useRateTarget: m.useRateTarget,
  produceTargetNumber: m.produceTargetNumber,
  ngTargetNumber: m.ngTargetNumber,
  capacityTarget: m.capacityTarget,
  maxPpm: m.maxPpm,
  plcModel: m.plcModel,
});

/**
 * The machines (`devices` rows): one by one, by sheet, and their bindings to gateways, which the
 * gateways domain stores through `setBinding` once the gateway confirmed them.
 */
export const createMachinesService = ({ repo, lines, reloadMachines }: MachinesDeps) => ({
  machines: (
    filter: { keyword?: string | undefined; lineId?: number | undefined },
    pageIndex: number,
    pageSize: number,
  ): Promise<Page<AdminMachine>> => repo.machinePage(filter, (pageIndex - 1) * pageSize, pageSize),

  async saveMachine(actor: Actor, body: Machine, mode: 'create' | 'update'): Promise<AdminMachine> {
    await lines.checkPlace(body.lineId, body.groupId);
    const saved = await repo.transaction(async (r) => {
      const before = await r.machine(body.snCode);
      if (mode === 'create' && before) throw invalidField('snCode', adminMessages.machineExists);
      if (mode === 'update' && !before) throw notFound(adminMessages.machineNotFound);
      const fields = fieldsOf(body, body.lineId, body.groupId);
      if (before) await r.updateMachine(body.snCode, fields);
      else await r.insertMachine(body.snCode, fields);
      const after = (await r.machine(body.snCode))!;
      await r.audit(
        auditBy(actor, `machine.${mode}`, `machine:${body.snCode}`, before ?? null, after),
      );
      return after;
    });
    await reloadMachines();
    return saved;
  },

  async deleteMachine(actor: Actor, snCode: string): Promise<void> {
    await repo.transaction(async (r) => {
      const before = await r.machine(snCode);
      if (!before) throw notFound(adminMessages.machineNotFound);
      if (before.gatewayId) throw invalidField('snCode', adminMessages.machineBound);
      await r.deleteMachine(snCode);
      await r.audit(auditBy(actor, 'machine.delete', `machine:${snCode}`, before, null));
    });
    await reloadMachines();
  },

  /**
   * All or nothing: every row is checked first (schema, its line and group by name, an SN
   * repeated in the sheet) and any bad row refuses the whole sheet, each bad row named by its
   * number; a good sheet is written in one transaction (docs/architecture.md decision 57).
   */
  async importMachines(actor: Actor, file: Buffer): Promise<{ created: number; updated: number }> {
    let rows: SheetRow[];
    try {
      rows = await readMachineSheet(file);
    } catch (error) {
      if (error instanceof SheetError) throw invalidField('file', error.message);
      throw error;
    }
    const places = await lines.lines();
    const lineIds = new Map(places.map((l) => [l.name, l.id]));
    const groupIds = new Map(
      places.flatMap((l) => l.groups.map((g) => [`${l.id}\u0000${g.name}`, g.id] as const)),
    );
    const errors: ImportRefusal['errors'] = [];
    const seen = new Map<string, number>();
    const machines: { sn: string; fields: MachineFields }[] = [];
    for (const { row, values } of rows) {
      const fail = (message: string) =>
        errors.push({ path: `row.${row}`, message: `第${row}行：${message}` });
      const parsed = machineImportRow.safeParse(
        Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null)),
      );
      if (!parsed.success) {
        fail(parsed.error.issues[0]?.message ?? adminMessages.badSheet);
        continue;
      }
      const m = parsed.data;
      const first = seen.get(m.snCode);
      if (first !== undefined) {
        fail(`SN码${m.snCode}与第${first}行重复`);
        continue;
      }
      seen.set(m.snCode, row);
      const lineId = lineIds.get(m.line);
      if (lineId === undefined) {
        fail(`产线「${m.line}」不存在`);
        continue;
      }
      let groupId: number | null = null;
      if (m.group) {
        const found = groupIds.get(`${lineId}\u0000${m.group}`);
        if (found === undefined) {
          fail(`产品组「${m.group}」不属于产线「${m.line}」`);
          continue;
        }
        groupId = found;
      }
      machines.push({ sn: m.snCode, fields: fieldsOf(m, lineId, groupId) });
    }
    if (errors.length > 0) {
      throw new DomainError(ReplyCode.badInput, errors[0]!.message, { errors });
    }
    const result = await repo.transaction(async (r) => {
      const existing = await r.existingSns(machines.map((m) => m.sn));
      await r.upsertMachines(machines);
      const created = machines.filter((m) => !existing.has(m.sn)).map((m) => m.sn);
      const updated = machines.filter((m) => existing.has(m.sn)).map((m) => m.sn);
      await r.audit(
        auditBy(actor, 'machine.import', `machines:${machines.length}`, null, { created, updated }),
      );
      return { created: created.length, updated: updated.length };
    });
    await reloadMachines();
    return result;
  },

  exportMachines: async () => writeMachineSheet(await repo.allMachines()),

  /**
   * Binds a machine to a gateway's PLC, or unbinds it (null), with the gateway's audit entry in
   * the same transaction; then the registry reloads (ingest takes the machine's data from that
   * gateway only). Called by gateways once the gateway answered 200 (decision 61).
   */
  async setBinding(snCode: string, binding: Binding | null, entry: AuditRecord): Promise<void> {
    await repo.setBinding(snCode, binding, entry);
    await reloadMachines();
  },
});

export type MachinesService = ReturnType<typeof createMachinesService>;
