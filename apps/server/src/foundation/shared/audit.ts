import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Who makes a change: a signed-in admin, or the command line (no user). */
export interface Actor {
  id: number | null;
  name: string;
}

export const CLI_ACTOR: Actor = { id: null, name: 'cli' };

/**
 * One entry of the audit log the admin pages read (admin's audit page): who did what to what,
 * and the record as it was and became (never a password). Administration, sign-ins and
 * bindings (identity) and gateways write it, each in the transaction of its change.
 */
export interface AuditRecord {
  /** null: the command line, or nobody signed in (a failed sign-in). */
  actorId: number | null;
  actorName: string;
  /** 'user.create', 'signIn', 'gateway.bind', … (contracts audit-labels.ts names each). */
  action: string;
  /** 'user:E1001', 'gateway:GW0000000001', 'address:10.0.0.8', … */
  target: string;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** An entry by `actor`: the domains' services build their entries with it. */
export const auditBy = (
  actor: Actor,
  action: string,
  target: string,
  before: unknown,
  after: unknown,
): AuditRecord => ({ actorId: actor.id, actorName: actor.name, action, target, before, after });

export const writeAudit = (db: Kysely<Database>, entry: AuditRecord) =>
  db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      action: entry.action,
      target: entry.target,
      before: json(entry.before),
      after: json(entry.after),
    })
    .execute();
