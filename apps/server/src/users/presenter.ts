import type { AdminApplication, AdminUser, AuditEntry } from '@linewatch/contracts/admin';
import type { Page } from '@linewatch/contracts/rules/paging';
import type { Application } from '../applications/service.ts';
import type { AuditLogEntry, User } from './repository.ts';

export const presentUser = (u: User): AdminUser => ({
  id: u.id,
  psnCode: u.psnCode,
  name: u.name,
  nickName: u.nickName,
  mobile: u.mobile,
  isAdmin: u.isAdmin,
  disabled: u.disabled,
  lineIds: u.lineIds,
  createdAt: u.createdAt.toISOString(),
});

/** An application; not yet decided: `decidedAt` null. */
export const presentApplication = (a: Application): AdminApplication => ({
  id: a.id,
  name: a.name,
  psnCode: a.psnCode,
  mobile: a.mobile,
  status: a.status,
  reason: a.reason,
  createdAt: a.createdAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

export const presentAuditPage = (page: Page<AuditLogEntry>): Page<AuditEntry> => ({
  total: page.total,
  data: page.data.map((e) => ({
    id: e.id,
    actorName: e.actorName,
    action: e.action,
    target: e.target,
    before: e.before,
    after: e.after,
    createdAt: e.createdAt.toISOString(),
  })),
});
