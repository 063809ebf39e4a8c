import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One message for one person. */
export interface Notice {
  userId: number;
  /** What caused it, for filtering and channels: 'alarm', 'daily', 'faca-task', … */
  kind: string;
  title: string;
  body: string;
  /** An app path that opens what the message is about (shared/paths.ts on the web side). */
  link?: string | null;
  /**
   * The event's identity for this user, e.g. `alarm:LW-S1-002:E101:<episode start>`: a notice
   * whose (userId, dedupeKey) exists already is not written again, so a retried or replayed
   * cause tells nobody twice.
   */
  dedupeKey: string;
}

/** The database or the caller's open transaction: a notice commits with the event that caused it. */
export type Executor = Kysely<Database>;

export interface Notifications {
  /** Writes the notices in `executor` (pass the transaction of the cause); returns how many were new. */
  notify(executor: Executor, notices: readonly Notice[]): Promise<number>;
}

export const createNotifications = (): Notifications => ({
  async notify(executor, notices) {
    if (notices.length === 0) return 0;
    const written = await executor
      .insertInto('notifications')
      .values(
        notices.map((n) => ({
          user_id: n.userId,
          kind: n.kind,
          title: n.title,
          body: n.body,
          link: n.link ?? null,
          dedupe_key: n.dedupeKey,
        })),
      )
      .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
      .returning('id')
      .execute();
    return written.length;
  },
});
