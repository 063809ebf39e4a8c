import {
  adminMessages,
  type approveBody,
  type createUserBody,
  type rejectBody,
  type updateUserBody,
} from '@linewatch/contracts/admin';
import type { Page } from '@linewatch/contracts/rules/paging';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { invalidField, notFound } from '../foundation/http/envelope.ts';
import { auditBy, type Actor } from '../foundation/shared/audit.ts';
import { hashSecret } from '../foundation/shared/secrets.ts';
import type { Application, ApplicationsService } from '../applications/service.ts';
import type { LinesService } from '../lines/service.ts';
import type { AuditLogEntry, User, UsersRepository } from './repository.ts';

type CreateUser = z.output<typeof createUserBody>;
type UpdateUser = z.output<typeof updateUserBody>;

export interface UsersDeps {
  repo: UsersRepository;
  /** Lines' service: the lines granted must exist. */
  lines: Pick<LinesService, 'checkLines'>;
  /** identity's service: ends a user's sessions and closes their sockets (4405). */
  endUserSessions: (userId: number) => Promise<void>;
  /**
   * A user's name or rights changed: sessions this instance read before say so no longer (the
   * other instances are told by the notice the change commits with).
   */
  userChanged: (userId: number) => void;
  /**
   * Applications' service: the applications administrators decide (its table), and the SMS that
   * sends an applicant their account.
   */
  applications: Pick<ApplicationsService, 'list' | 'mustPending' | 'decide' | 'tell'>;
}

/** A readable initial password for an approved applicant (they are told it by SMS). */
const initialPassword = () => randomBytes(8).toString('base64url').slice(0, 10);

/**
 * Users, their lines, account approvals and the audit log's listing (docs/architecture.md
 * decisions 55–56). Other domains are asked before a transaction opens, never inside one: the
 * embedded database has one connection.
 */
export const createUsersService = ({
  repo,
  lines,
  endUserSessions,
  userChanged,
  applications,
}: UsersDeps) => {
  const mustUser = async (r: UsersRepository, id: number) => {
    const user = await r.user(id);
    if (!user) throw notFound(adminMessages.userNotFound);
    return user;
  };

  const service = {
    // users ----------------------------------------------------------------------------------

    users: () => repo.users(),

    async createUser(actor: Actor, body: CreateUser): Promise<User> {
      const passwordHash = await hashSecret(body.password);
      if (await repo.userIdByPsnCode(body.psnCode))
        throw invalidField('psnCode', adminMessages.userExists);
      await lines.checkLines(body.lineIds);
      const user = await repo.transaction(async (r) => {
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
        await r.audit(auditBy(actor, 'user.create', `user:${created.psnCode}`, null, created));
        return created;
      });
      return user;
    },

    async updateUser(actor: Actor, body: UpdateUser): Promise<User> {
      await mustUser(repo, body.id);
      if (actor.id === body.id && body.isAdmin === false)
        throw invalidField('isAdmin', adminMessages.notYourself);
      if (body.lineIds) await lines.checkLines(body.lineIds);
      const updated = await repo.transaction(async (r) => {
        const before = await mustUser(r, body.id);
        await r.updateUser(body.id, {
          name: body.name,
          nickName: body.nickName,
          isAdmin: body.isAdmin,
        });
        if (body.lineIds) await r.setUserLines(body.id, [...new Set(body.lineIds)]);
        const after = await mustUser(r, body.id);
        await r.audit(auditBy(actor, 'user.update', `user:${after.psnCode}`, before, after));
        await r.announceUserChanged(body.id);
        return after;
      });
      userChanged(body.id);
      return updated;
    },

    /** Disabling ends every session of the user at once: their open sockets close with 4405. */
    async setDisabled(actor: Actor, id: number, disabled: boolean): Promise<User> {
      if (actor.id === id) throw invalidField('id', adminMessages.notYourself);
      const after = await repo.transaction(async (r) => {
        const before = await mustUser(r, id);
        await r.setDisabled(id, disabled);
        const changed = await mustUser(r, id);
        const action = disabled ? 'user.disable' : 'user.enable';
        await r.audit(auditBy(actor, action, `user:${changed.psnCode}`, before, changed));
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
        await r.updateUser(id, { passwordHash });
        const unbound = await r.releaseIdentities(id);
        await r.audit(
          auditBy(actor, 'user.resetPassword', `user:${user.psnCode}`, null, {
            passwordChanged: true,
            unbound,
          }),
        );
      });
      await endUserSessions(id);
    },

    // applications ---------------------------------------------------------------------------

    applications: (): Promise<Application[]> => applications.list(),

    /** Makes the account (initial password sent to the applicant by SMS) and grants its lines. */
    async approve(
      actor: Actor,
      body: z.output<typeof approveBody>,
    ): Promise<{ userId: number; initialPassword: string }> {
      const password = initialPassword();
      const passwordHash = await hashSecret(password);
      const application = await applications.mustPending(body.id);
      if (await repo.userIdByPsnCode(application.psnCode))
        throw invalidField('id', adminMessages.userExists);
      await lines.checkLines(body.lineIds);
      const { psnCode, mobile } = application;
      const userId = await repo.transaction(async (r, tx) => {
        const id = await r.insertUser({
          psnCode,
          name: application.name,
          nickName: '',
          mobile: application.mobile,
          passwordHash,
          isAdmin: false,
        });
        await r.setUserLines(id, [...new Set(body.lineIds)]);
        await applications.decide(tx, body.id, { status: 'approved', reason: '', userId: id });
        const created = await mustUser(r, id);
        await r.audit(
          auditBy(
            actor,
            'application.approve',
            `application:${body.id}`,
            { status: 'pending' },
            { status: 'approved', user: created },
          ),
        );
        return id;
      });
      await applications.tell(
        mobile,
        `您的Linewatch账号申请已通过。账号：${psnCode}，初始密码：${password}`,
      );
      return { userId, initialPassword: password };
    },

    async reject(actor: Actor, body: z.output<typeof rejectBody>): Promise<Application> {
      await applications.mustPending(body.id);
      await repo.transaction(async (r, tx) => {
        await applications.decide(tx, body.id, {
          status: 'rejected',
          reason: body.reason,
          userId: null,
        });
        await r.audit(
          auditBy(
            actor,
            'application.reject',
            `application:${body.id}`,
            { status: 'pending' },
            { status: 'rejected', reason: body.reason },
          ),
        );
      });
      return (await service.applications()).find((a) => a.id === body.id)!;
    },

    // the audit log ----------------------------------------------------------------------------------

    /**
     * Every domain's entries, newest first: the log is of what people did, and the people are
     * this domain's (docs/architecture.md decision 55).
     */
    audit: (pageIndex: number, pageSize: number): Promise<Page<AuditLogEntry>> =>
      repo.auditPage((pageIndex - 1) * pageSize, pageSize),
  };
  return service;
};

export type UsersService = ReturnType<typeof createUsersService>;
