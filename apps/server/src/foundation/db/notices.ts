import { sql } from 'kysely';
import { z } from 'zod';
import type { Db, OpenDatabase } from './database.ts';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. A notice whose list would be longer
 * than this goes out as "anything may have changed": its listeners drop all they keep, which is
 * correct, only costlier.
 */
export const NOTICE_MAX_BYTES = 2000;

const ids = z.array(z.number().int());

/**
 * What one process tells the others on the same PostgreSQL (the other server instances; the admin
 * CLI tells some too) so that what each keeps in memory follows a change made elsewhere: each
 * channel with the schema of its payload. The writer of a table announces changes to it; the
 * domains that keep something derived from it listen.
 */
const NOTICES = {
  /** Machines, lines or groups changed: the device registry reloads. */
  machines_changed: z.object({}),
  /** These users followed or unfollowed machines: their list marks (devices/follow-marks.ts). */
  follows_changed: z.object({ users: ids }),
  /** These users' name, rights or state changed: their cached sessions (identity). */
  users_changed: z.object({ users: ids }),
  /** One session ended (a sign-out), or every session of a user: cached ones drop, sockets close. */
  sessions_ended: z.union([
    z.object({ session: z.string() }),
    z.object({ user: z.number().int() }),
  ]),
  /** A flush wrote minutes of past days of these machines: their kept whole-day sums. */
  past_days_written: z.object({ sns: z.array(z.string()) }),
};

type Channel = keyof typeof NOTICES;
export type Notice<C extends Channel> = z.infer<(typeof NOTICES)[C]>;

/** The payload of a notice, or '' (anything may have changed) when it would be too long. */
export const payloadOf = (notice: object): string => {
  const json = JSON.stringify(notice);
  return Buffer.byteLength(json) <= NOTICE_MAX_BYTES ? json : '';
};

/**
 * What a payload says, or null when it says "anything may have changed": after a reconnect (no
 * payload), a list that was too long (''), or one this version cannot read (an instance of
 * another version during a rolling update).
 */
export const noticeOf = <C extends Channel>(
  channel: C,
  payload: string | undefined,
): Notice<C> | null => {
  if (!payload) return null;
  try {
    const parsed = NOTICES[channel].safeParse(JSON.parse(payload));
    return parsed.success ? (parsed.data as Notice<C>) : null;
  } catch {
    return null;
  }
};

/**
 * Tells every process listening on `channel` once `db`'s transaction commits, or at once outside
 * one. Given the writer's transaction, the notice goes out exactly when the change does.
 */
export const announce = async <C extends Channel>(
  db: Db,
  channel: C,
  notice: Notice<C>,
): Promise<void> => {
  await sql`select pg_notify(current_schema() || '.' || ${channel}, ${payloadOf(notice)})`.execute(
    db,
  );
};

/**
 * Runs `handler` with every notice on `channel` another process (or this one) commits, and with
 * null when anything may have changed. Never called on the embedded database: one process.
 */
export const hear = <C extends Channel>(
  database: OpenDatabase,
  channel: C,
  handler: (notice: Notice<C> | null) => void,
): Promise<void> => database.listen(channel, (payload) => handler(noticeOf(channel, payload)));
