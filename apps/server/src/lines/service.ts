import { adminMessages, type saveGroupBody, type saveLineBody } from '@linewatch/contracts/admin';
import type { z } from 'zod';
import { invalidField, notFound } from '../foundation/http/envelope.ts';
import { auditBy, type Actor } from '../foundation/shared/audit.ts';
import { groupAsRecorded, type LinesRepository, type LineWithGroups } from './repository.ts';

export interface LinesDeps {
  repo: LinesRepository;
  /**
   * After lines or groups change: the device registry holds each machine's line and group names
   * and the lines' order (core/device-registry.ts).
   */
  reloadMachines: () => Promise<void>;
}

/** Production lines and their product groups (docs/architecture.md decision 55). */
export const createLinesService = ({ repo, reloadMachines }: LinesDeps) => {
  const lines = async (): Promise<LineWithGroups[]> => {
    const [all, groups] = await Promise.all([repo.lines(), repo.groups()]);
    return all.map((l) => ({ ...l, groups: groups.filter((g) => g.lineId === l.id) }));
  };
  const lineView = async (id: number) => (await lines()).find((l) => l.id === id)!;

  return {
    lines,

    /** Every line named exists, else 0400 on `lineIds` (a user's grant, an approval). */
    async checkLines(lineIds: readonly number[]): Promise<void> {
      const found = await repo.existingLineIds(lineIds);
      if (lineIds.some((id) => !found.has(id)))
        throw invalidField('lineIds', adminMessages.lineNotFound);
    },

    /** A machine's line and group, checked: the group must belong to the line. */
    async checkPlace(lineId: number, groupId: number | null): Promise<void> {
      if (!(await repo.line(lineId))) throw invalidField('lineId', adminMessages.lineNotFound);
      if (groupId !== null) {
        const group = await repo.group(groupId);
        if (!group) throw invalidField('groupId', adminMessages.groupNotFound);
        if (group.lineId !== lineId) throw invalidField('groupId', adminMessages.groupNotOfLine);
      }
    },

    async saveLine(actor: Actor, body: z.output<typeof saveLineBody>): Promise<LineWithGroups> {
      const id = await repo.transaction(async (r) => {
        const clash = await r.lineByName(body.name);
        if (clash && clash.id !== body.id) throw invalidField('name', adminMessages.lineExists);
        if (body.id === undefined) {
          const created = await r.insertLine(body.name, body.sort);
          await r.audit(
            auditBy(actor, 'line.create', `line:${body.name}`, null, { id: created, ...body }),
          );
          return created;
        }
        const before = await r.line(body.id);
        if (!before) throw notFound(adminMessages.lineNotFound);
        await r.updateLine(body.id, body.name, body.sort);
        await r.audit(auditBy(actor, 'line.update', `line:${body.name}`, before, body));
        return body.id;
      });
      await reloadMachines();
      return lineView(id);
    },

    async deleteLine(actor: Actor, id: number): Promise<void> {
      await repo.transaction(async (r) => {
        const line = (await r.lines()).find((l) => l.id === id);
        if (!line) throw notFound(adminMessages.lineNotFound);
        if (line.machines > 0) throw invalidField('id', adminMessages.lineInUse);
        await r.deleteLine(id);
        await r.audit(auditBy(actor, 'line.delete', `line:${line.name}`, line, null));
      });
    },

    async saveGroup(actor: Actor, body: z.output<typeof saveGroupBody>): Promise<LineWithGroups> {
      await repo.transaction(async (r) => {
        if (!(await r.line(body.lineId))) throw invalidField('lineId', adminMessages.lineNotFound);
        const clash = await r.groupIdByName(body.lineId, body.name);
        if (clash !== undefined && clash !== body.id)
          throw invalidField('name', adminMessages.groupExists);
        if (body.id === undefined) {
          const created = await r.insertGroup(body.lineId, body.name);
          await r.audit(
            auditBy(actor, 'group.create', `group:${body.name}`, null, { id: created, ...body }),
          );
          return;
        }
        const before = await r.group(body.id);
        if (!before) throw notFound(adminMessages.groupNotFound);
        await r.updateGroup(body.id, body.lineId, body.name);
        await r.audit(
          auditBy(actor, 'group.update', `group:${body.name}`, groupAsRecorded(before), body),
        );
      });
      await reloadMachines();
      return lineView(body.lineId);
    },

    async deleteGroup(actor: Actor, id: number): Promise<void> {
      await repo.transaction(async (r) => {
        const group = (await r.groups()).find((g) => g.id === id);
        if (!group) throw notFound(adminMessages.groupNotFound);
        if (group.machines > 0) throw invalidField('id', adminMessages.groupInUse);
        await r.deleteGroup(id);
        await r.audit(
          auditBy(actor, 'group.delete', `group:${group.name}`, groupAsRecorded(group), null),
        );
      });
    },
  };
};

export type LinesService = ReturnType<typeof createLinesService>;
