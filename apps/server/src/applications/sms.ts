import type { SmsMessage } from '@linewatch/contracts/applications';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Where text messages to a phone go (verification codes, an approved applicant's initial
 * password). A site with an SMS provider plugs its client in here (applications module option).
 */
export interface SmsChannel {
  send(mobile: string, text: string): Promise<void>;
  /** What was sent lately, for the admin screen; a real provider returns []. */
  recent(): SmsMessage[];
}

const KEEP = 50;

/**
 * The embedded default, for a site with no SMS provider: each message goes to the server log and
 * to the admin screen (the last 50, in this process's memory), so an admin can read a code or an
 * initial password out to the applicant.
 */
export const createLogSmsChannel = (log: FastifyBaseLogger): SmsChannel => {
  const sent: SmsMessage[] = [];
  return {
    async send(mobile, text) {
      log.info({ sms: { mobile, text } }, 'sms (embedded channel: no provider configured)');
      sent.unshift({ mobile, text, sentAt: new Date().toISOString() });
      sent.length = Math.min(sent.length, KEEP);
    },
    recent: () => [...sent],
  };
};
