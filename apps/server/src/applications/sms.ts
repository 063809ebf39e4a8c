import type { Db } from '../foundation/db/database.ts';

/** A text message sent to a phone. */
export interface SentSms {
  mobile: string;
  text: string;
  sentAt: Date;
}

/**
 * Where text messages to a phone go (verification codes, an approved applicant's initial
 * password). A site with an SMS provider plugs its client in here (applications module option).
 */
export interface SmsChannel {
  send(mobile: string, text: string): Promise<void>;
  /** What was sent lately, for the admin screen; a real provider answers []. */
  recent(): Promise<SentSms[]>;
}

const KEEP = 50;
const KEEP_MS = 24 * 3_600_000;

/**
 * The embedded default, for a site with no SMS provider: each message goes to the log and to the
 * `sms_outbox` table, whose newest 50 the admin screen shows, so an admin can read a code or an
 * initial password out to the applicant whichever server instance (or the CLI) sent it. Rows
 * older than a day or beyond the newest 50 are deleted as new ones come: they hold codes and
 * passwords in clear.
 */
export const createEmbeddedSmsChannel = (
  db: Db,
  log: { info(details: object, message: string): void },
): SmsChannel => ({
  async send(mobile, text) {
    log.info({ sms: { mobile, text } }, 'sms (embedded channel: no provider configured)');
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('sms_outbox').values({ mobile, text }).execute();
      await tx
        .deleteFrom('sms_outbox')
        .where((eb) =>
          eb.or([
            eb('sent_at', '<', new Date(Date.now() - KEEP_MS)),
            eb(
              'id',
              'not in',
              eb.selectFrom('sms_outbox').select('id').orderBy('id', 'desc').limit(KEEP),
            ),
          ]),
        )
        .execute();
    });
  },
  recent: async () =>
    (
      await db
        .selectFrom('sms_outbox')
        .select(['mobile', 'text', 'sent_at'])
        .orderBy('id', 'desc')
        .limit(KEEP)
        .execute()
    ).map((m) => ({ mobile: m.mobile, text: m.text, sentAt: m.sent_at })),
});
