import {
  adminMessages,
  machineImportRow,
  type AdminApplication,
  type AdminLine,
  type AdminMachine,
  type AdminUser,
  type AuditEntry,
  type ImportRefusal,
} from '@linewatch/contracts/admin';
import type { Page } from '@linewatch/contracts/rules/paging';
import type { z } from 'zod';
import type {
  approveBody,
  createUserBody,
  machineBody,
  rejectBody,
  saveGroupBody,
  saveLineBody,
  updateUserBody,
} from '@linewatch/contracts/admin';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { randomBytes } from 'node:crypto';
import { DomainError } from '../foundation/http/envelope.ts';
import { hashSecret } from '../foundation/shared/secrets.ts';
import type { AdminRepository, MachineColumns } from './repository.ts';
import { readMachineSheet, SheetError, writeMachineSheet, type SheetRow } from './sheet.ts';

/** Who makes a change: a signed-in admin, or the command line (no user). */
export interface Actor {
  id: number | null;
  name: string;
}

export const CLI_ACTOR: Actor = { id: null, name: 'cli' };

type CreateUser = z.output<typeof createUserBody>;
type UpdateUser = z.output<typeof updateUserBody>;
type Machine = z.output<typeof machineBody>;

/** 0400 naming the field, as a schema refusal would (the error envelope of docs/design.md section 6). */
const invalid = (path: string, message: string) =>
  new DomainError(ReplyCode.badInput, message, { errors: [{ path, message }] });
const missing = (message: string) => new DomainError(ReplyCode.notFound, message);

export interface AdminDeps {
  repo: AdminRepository;
  /** identity's service: ends a user's sessions and closes their sockets (4405). */
  endUserSessions: (userId: number) => Promise<void>;
  /**
   * A user's name or rights changed: sessions this instance read before say so no longer (the
   * other instances are told by the notice the change commits with).
   */
  userChanged: (userId: number) => void;
  /**
   * After machines, lines or groups change: the device registry the hot paths and the lists read
   * (core/device-registry.ts).
   */
  reloadMachines: () => Promise<void>;
  /** Sends an applicant their account by SMS (applications' channel). */
  tell: (mobile: string, text: string) => Promise<void>;
}

const machineColumns = (
  m: Omit<Machine, 'snCode' | 'lineId' | 'groupId'>,
  lineId: number,
  groupId: number | null,
): MachineColumns => ({
  device_name: m.deviceName,
  nick_sn_code: m.nickSnCode,
  nick_device_name: m.nickDeviceName,
  machine_name: m.machineName,
  project_name: m.projectName,
  line_id: lineId,
  group_id: groupId,
  country: m.country || '中国',
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

/** A readable initial password for an approved applicant (they are told it by SMS). */
const initialPassword = () => randomBytes(8).toString('base64url').slice(0, 10);

export const createAdminService = ({
  repo,
  endUserSessions,
  userChanged,
  reloadMachines,
  tell,
}: AdminDeps) => {
  const audit = (
    r: AdminRepository,
    actor: Actor,
    action: string,
    target: string,
    before: unknown,
    after: unknown,
  ) => r.audit({ actorId: actor.id, actorName: actor.name, action, target, before, after });

  const checkLines = async (r: AdminRepository, lineIds: readonly number[]) => {
    const found = await r.existingLineIds(lineIds);
    if (lineIds.some((id) => !found.has(id))) throw invalid('lineIds', adminMessages.lineNotFound);
  };

  const mustUser = async (r: AdminRepository, id: number) => {
    const user = await r.user(id);
    if (!user) throw missing(adminMessages.userNotFound);
    return user;
  };

  const linesView = async (): Promise<AdminLine[]> => {
    const [lines, groups] = await Promise.all([repo.lines(), repo.groups()]);
    return lines.map((l) => ({
      id: l.id,
      name: l.name,
      sort: l.sort,
      machineCount: l.machines,
      groups: groups
        .filter((g) => g.line_id === l.id)
        .map((g) => ({ id: g.id, name: g.name, machineCount: g.machines })),
    }));
  };
  const lineView = async (id: number) => (await linesView()).find((l) => l.id === id)!;

  /** The line and group of a machine, checked: the group must belong to the line. */
  const checkPlace = async (r: AdminRepository, lineId: number, groupId: number | null) => {
    if (!(await r.line(lineId))) throw invalid('lineId', adminMessages.lineNotFound);
    if (groupId !== null) {
      const group = await r.group(groupId);
      if (!group) throw invalid('groupId', adminMessages.groupNotFound);
      if (group.line_id !== lineId) throw invalid('groupId', adminMessages.groupNotOfLine);
    }
  };

  const service = {
    // users ----------------------------------------------------------------------------------

    users: () => repo.users(),

    async createUser(actor: Actor, body: CreateUser): Promise<AdminUser> {
      const passwordHash = await hashSecret(body.password);
      const user = await repo.transaction(async (r) => {
        if (await r.userIdByPsnCode(body.psnCode))
          throw invalid('psnCode', adminMessages.userExists);
        await checkLines(r, body.lineIds);
        const id = await r.insertUser({
          psnCode: body.psnCode,
          name: body.name,
          nickName: body.nickName,
          mobile: body.mobile || null,
          passwordHash,
          isAdmin: body.isAdmin,
        });
        await r.setUserLines(id, body.lineIds);
        const created = await mustUser(r, id);
        await audit(r, actor, 'user.create', `user:${created.psnCode}`, null, created);
        return created;
      });
      return user;
    },

    async updateUser(actor: Actor, body: UpdateUser): Promise<AdminUser> {
      const updated = await repo.transaction(async (r) => {
        const before = await mustUser(r, body.id);
        if (actor.id === body.id && body.isAdmin === false)
          throw invalid('isAdmin', adminMessages.notYourself);
        await r.updateUser(body.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.nickName !== undefined ? { nick_name: body.nickName } : {}),
          ...(body.isAdmin !== undefined ? { is_admin: body.isAdmin } : {}),
        });
        if (body.lineIds) {
          await checkLines(r, body.lineIds);
          await r.setUserLines(body.id, [...new Set(body.lineIds)]);
        }
        const after = await mustUser(r, body.id);
        await audit(r, actor, 'user.update', `user:${after.psnCode}`, before, after);
        await r.announceUserChanged(body.id);
        return after;
      });
      userChanged(body.id);
      return updated;
    },

    /** Disabling ends every session of the user at once: their open sockets close with 4405. */
    async setDisabled(actor: Actor, id: number, disabled: boolean): Promise<AdminUser> {
      if (actor.id === id) throw invalid('id', adminMessages.notYourself);
      const after = await repo.transaction(async (r) => {
        const before = await mustUser(r, id);
        await r.setDisabled(id, disabled);
        const changed = await mustUser(r, id);
        const action = disabled ? 'user.disable' : 'user.enable';
        await audit(r, actor, action, `user:${changed.psnCode}`, before, changed);
        await r.announceUserChanged(id);
        return changed;
      });
      userChanged(id);
      if (disabled) await endUserSessions(id);
      return after;
    },

    /**
     * A new password ends the user's sessions and unbinds their WeChat and DingTalk, as disabling
     * does: the old password may have leaked (nobody can tell a forgotten one from a stolen one),
     * and whoever knew it may have bound their own messaging account to sign in silently. The
     * user binds again with the new password on their next visit.
     */
    async resetPassword(actor: Actor, id: number, password: string): Promise<void> {
      const passwordHash = await hashSecret(password);
      await repo.transaction(async (r) => {
        const user = await mustUser(r, id);
        await r.updateUser(id, { password_hash: passwordHash });
        const unbound = await r.releaseIdentities(id);
        await audit(r, actor, 'user.resetPassword', `user:${user.psnCode}`, null, {
          passwordChanged: true,
          unbound,
        });
      });
      await endUserSessions(id);
    },

    // applications ---------------------------------------------------------------------------

    applications: async (): Promise<AdminApplication[]> =>
      (await repo.applications()).map((a) => ({
        id: a.id,
        name: a.name,
        psnCode: a.psn_code,
        mobile: a.mobile,
        status: a.status,
        reason: a.reason,
        createdAt: a.created_at.toISOString(),
        decidedAt: a.decided_at?.toISOString() ?? null,
      })),

    /** Makes the account (initial password sent to the applicant by SMS) and grants its lines. */
    async approve(
      actor: Actor,
      body: z.output<typeof approveBody>,
    ): Promise<{ userId: number; initialPassword: string }> {
      const password = initialPassword();
      const passwordHash = await hashSecret(password);
      const { userId, mobile, psnCode } = await repo.transaction(async (r) => {
        const application = await r.application(body.id);
        if (!application) throw missing(adminMessages.applicationNotFound);
        if (application.status !== 'pending') throw invalid('id', adminMessages.applicationDecided);
        if (await r.userIdByPsnCode(application.psn_code))
          throw invalid('id', adminMessages.userExists);
        await checkLines(r, body.lineIds);
        const id = await r.insertUser({
          psnCode: application.psn_code,
          name: application.name,
          nickName: '',
          mobile: application.mobile,
          passwordHash,
          isAdmin: false,
        });
        await r.setUserLines(id, [...new Set(body.lineIds)]);
        await r.decideApplication(body.id, { status: 'approved', reason: '', userId: id });
        const created = await mustUser(r, id);
        await audit(
          r,
          actor,
          'application.approve',
          `application:${body.id}`,
          { status: 'pending' },
          {
            status: 'approved',
            user: created,
          },
        );
        return { userId: id, mobile: application.mobile, psnCode: application.psn_code };
      });
      await tell(mobile, `您的Linewatch账号申请已通过。账号：${psnCode}，初始密码：${password}`);
      return { userId, initialPassword: password };
    },

    async reject(actor: Actor, body: z.output<typeof rejectBody>): Promise<AdminApplication> {
      await repo.transaction(async (r) => {
        const application = await r.application(body.id);
        if (!application) throw missing(adminMessages.applicationNotFound);
        if (application.status !== 'pending') throw invalid('id', adminMessages.applicationDecided);
        await r.decideApplication(body.id, {
          status: 'rejected',
          reason: body.reason,
          userId: null,
        });
        await audit(
          r,
          actor,
          'application.reject',
          `application:${body.id}`,
          { status: 'pending' },
          {
            status: 'rejected',
            reason: body.reason,
          },
        );
      });
      return (await service.applications()).find((a) => a.id === body.id)!;
    },

    // lines and groups -----------------------------------------------------------------------

    lines: linesView,

    async saveLine(actor: Actor, body: z.output<typeof saveLineBody>): Promise<AdminLine> {
      const id = await repo.transaction(async (r) => {
        const clash = await r.lineByName(body.name);
        if (clash && clash.id !== body.id) throw invalid('name', adminMessages.lineExists);
        if (body.id === undefined) {
          const created = await r.insertLine(body.name, body.sort);
          await audit(r, actor, 'line.create', `line:${body.name}`, null, { id: created, ...body });
          return created;
        }
        const before = await r.line(body.id);
        if (!before) throw missing(adminMessages.lineNotFound);
        await r.updateLine(body.id, body.name, body.sort);
        await audit(r, actor, 'line.update', `line:${body.name}`, before, body);
        return body.id;
      });
      // The registry holds each machine's line name and the lines' order (the list's pages).
      await reloadMachines();
      return lineView(id);
    },

    async deleteLine(actor: Actor, id: number): Promise<void> {
      await repo.transaction(async (r) => {
        const line = (await r.lines()).find((l) => l.id === id);
        if (!line) throw missing(adminMessages.lineNotFound);
        if (line.machines > 0) throw invalid('id', adminMessages.lineInUse);
        await r.deleteLine(id);
        await audit(r, actor, 'line.delete', `line:${line.name}`, line, null);
      });
    },

    async saveGroup(actor: Actor, body: z.output<typeof saveGroupBody>): Promise<AdminLine> {
      await repo.transaction(async (r) => {
        if (!(await r.line(body.lineId))) throw invalid('lineId', adminMessages.lineNotFound);
        const clash = await r.groupByName(body.lineId, body.name);
        if (clash && clash.id !== body.id) throw invalid('name', adminMessages.groupExists);
        if (body.id === undefined) {
          const created = await r.insertGroup(body.lineId, body.name);
          await audit(r, actor, 'group.create', `group:${body.name}`, null, {
            id: created,
            ...body,
          });
          return;
        }
        const before = await r.group(body.id);
        if (!before) throw missing(adminMessages.groupNotFound);
        await r.updateGroup(body.id, body.lineId, body.name);
        await audit(r, actor, 'group.update', `group:${body.name}`, before, body);
      });
      await reloadMachines();
      return lineView(body.lineId);
    },

    async deleteGroup(actor: Actor, id: number): Promise<void> {
      await repo.transaction(async (r) => {
        const group = (await r.groups()).find((g) => g.id === id);
        if (!group) throw missing(adminMessages.groupNotFound);
        if (group.machines > 0) throw invalid('id', adminMessages.groupInUse);
        await r.deleteGroup(id);
        await audit(r, actor, 'group.delete', `group:${group.name}`, group, null);
      });
    },

    // machines -------------------------------------------------------------------------------

    machines: (
      filter: { keyword?: string | undefined; lineId?: number | undefined },
      pageIndex: number,
      pageSize: number,
    ): Promise<Page<AdminMachine>> =>
      repo.machinePage(filter, (pageIndex - 1) * pageSize, pageSize),

    async saveMachine(
      actor: Actor,
      body: Machine,
      mode: 'create' | 'update',
    ): Promise<AdminMachine> {
      const saved = await repo.transaction(async (r) => {
        await checkPlace(r, body.lineId, body.groupId);
        const before = await r.machine(body.snCode);
        if (mode === 'create' && before) throw invalid('snCode', adminMessages.machineExists);
        if (mode === 'update' && !before) throw missing(adminMessages.machineNotFound);
        const columns = machineColumns(body, body.lineId, body.groupId);
        if (before) await r.updateMachine(body.snCode, columns);
        else await r.insertMachine(body.snCode, columns);
        const after = (await r.machine(body.snCode))!;
        await audit(r, actor, `machine.${mode}`, `machine:${body.snCode}`, before ?? null, after);
        return after;
      });
      await reloadMachines();
      return saved;
    },

    async deleteMachine(actor: Actor, snCode: string): Promise<void> {
      await repo.transaction(async (r) => {
        const before = await r.machine(snCode);
        if (!before) throw missing(adminMessages.machineNotFound);
        if (before.gatewayId) throw invalid('snCode', adminMessages.machineBound);
        await r.deleteMachine(snCode);
        await audit(r, actor, 'machine.delete', `machine:${snCode}`, before, null);
      });
      await reloadMachines();
    },

    /**
     * All or nothing: every row is checked first (schema, its line and group by name, an SN
     * repeated in the sheet) and any bad row refuses the whole sheet, each bad row named by its
     * number; a good sheet is written in one transaction.
     */
    async importMachines(
      actor: Actor,
      file: Buffer,
    ): Promise<{ created: number; updated: number }> {
      let rows: SheetRow[];
      try {
        rows = await readMachineSheet(file);
      } catch (error) {
        if (error instanceof SheetError) throw invalid('file', error.message);
        throw error;
      }
      const result = await repo.transaction(async (r) => {
        const lines = new Map((await r.lines()).map((l) => [l.name, l.id]));
        const groups = new Map(
          (await r.groups()).map((g) => [`${g.line_id}\u0000${g.name}`, g.id]),
        );
        const errors: ImportRefusal['errors'] = [];
        const seen = new Map<string, number>();
        const machines: { sn: string; columns: MachineColumns }[] = [];
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
          const lineId = lines.get(m.line);
          if (lineId === undefined) {
            fail(`产线「${m.line}」不存在`);
            continue;
          }
          let groupId: number | null = null;
          if (m.group) {
            const found = groups.get(`${lineId}\u0000${m.group}`);
            if (found === undefined) {
              fail(`产品组「${m.group}」不属于产线「${m.line}」`);
              continue;
            }
            groupId = found;
          }
          machines.push({ sn: m.snCode, columns: machineColumns(m, lineId, groupId) });
        }
        if (errors.length > 0) {
          throw new DomainError(ReplyCode.badInput, errors[0]!.message, { errors });
        }
        const existing = await r.existingSns(machines.map((m) => m.sn));
        await r.upsertMachines(machines);
        const created = machines.filter((m) => !existing.has(m.sn)).map((m) => m.sn);
        const updated = machines.filter((m) => existing.has(m.sn)).map((m) => m.sn);
        await audit(r, actor, 'machine.import', `machines:${machines.length}`, null, {
          created,
          updated,
        });
        return { created: created.length, updated: updated.length };
      });
      await reloadMachines();
      return result;
    },

    exportMachines: async () => writeMachineSheet(await repo.allMachines()),

    // audit ----------------------------------------------------------------------------------

    async audit(pageIndex: number, pageSize: number): Promise<Page<AuditEntry>> {
      const { rows, total } = await repo.auditPage((pageIndex - 1) * pageSize, pageSize);
      return {
        total,
        data: rows.map((a) => ({
          id: Number(a.id),
          actorName: a.actor_name,
          action: a.action,
          target: a.target,
          before: a.before,
          after: a.after,
          createdAt: a.created_at.toISOString(),
        })),
      };
    },
  };
  return service;
};

export type AdminService = ReturnType<typeof createAdminService>;
