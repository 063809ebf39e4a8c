import {
  applicationMessages,
  VERIFICATION,
  type ApplicationProgress,
  type ApplyForm,
} from '@linewatch/contracts/applications';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { randomInt } from 'node:crypto';
import { DomainError, refused } from '../http/envelope.ts';
import { newToken, sha256 } from '../shared/secrets.ts';
import type { ApplicationsRepository } from './repository.ts';
import type { SmsChannel } from './sms.ts';

const HOUR = 3_600_000;

/** 138****0000: the progress page names the phone without giving it away. */
export const maskMobile = (mobile: string) =>
  mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;

// The phone is part of the hash, so one code cannot be replayed for another phone.
const codeHash = (mobile: string, code: string) => sha256(`${mobile}:${code}`);

export const createApplicationsService = (repo: ApplicationsRepository, sms: SmsChannel) => ({
  /**
   * Sends a code unless this phone had one within a minute or five within the hour. The count
   * and the new code's row are written under the phone's lock, so two server instances cannot
   * both let a sixth code through.
   */
  async sendCode(mobile: string, now = new Date()): Promise<{ retryAfterSeconds: number }> {
    const code = String(randomInt(0, 10 ** VERIFICATION.codeLength)).padStart(
      VERIFICATION.codeLength,
      '0',
    );
    await repo.withPhoneLocked(mobile, async (r) => {
      const sent = await r.sentSince(mobile, new Date(now.getTime() - HOUR));
      const wait = sent[0]
        ? Math.ceil(
            (sent[0].getTime() + VERIFICATION.resendAfterSeconds * 1000 - now.getTime()) / 1000,
          )
        : 0;
      if (wait > 0 || sent.length >= VERIFICATION.maxPerHour) {
        throw new DomainError(ReplyCode.refused, applicationMessages.sendTooSoon, {
          retryAfterSeconds: Math.max(wait, 0),
        });
      }
      await r.insertCode(
        mobile,
        codeHash(mobile, code),
        new Date(now.getTime() + VERIFICATION.ttlMs),
      );
    });
    await sms.send(mobile, `您的Linewatch账号申请验证码为 ${code}，5分钟内有效。`);
    return { retryAfterSeconds: VERIFICATION.resendAfterSeconds };
  },

  /** Uses the code (once), then files the application; answers the applicant's token. */
  async apply(form: ApplyForm, now = new Date()): Promise<{ token: string }> {
    // Under the phone's lock: a code's five guesses are five, however many instances answer.
    const accepted = await repo.withPhoneLocked(form.mobile, async (r) => {
      const code = await r.usableCode(form.mobile, now, VERIFICATION.maxAttempts);
      if (!code) return false;
      if (code.code_hash !== codeHash(form.mobile, form.code)) {
        await r.countWrongGuess(code.id);
        return false;
      }
      return r.useCode(code.id, now);
    });
    if (!accepted) throw refused(applicationMessages.codeInvalid);
    if (await repo.userExists(form.psnCode)) throw refused(applicationMessages.accountExists);
    const token = newToken();
    if (!(await repo.insertApplication({ ...form, tokenHash: sha256(token) })))
      throw refused(applicationMessages.pendingExists);
    return { token };
  },

  async progress(token: string): Promise<ApplicationProgress> {
    const row = await repo.findByToken(sha256(token));
    if (!row) throw new DomainError(ReplyCode.notFound, applicationMessages.notFound);
    return {
      name: row.name,
      psnCode: row.psn_code,
      mobile: maskMobile(row.mobile),
      status: row.status,
      reason: row.reason,
      createdAt: row.created_at.toISOString(),
      decidedAt: row.decided_at?.toISOString() ?? null,
    };
  },

  /** Tells an applicant something by SMS (their initial password on approval). */
  tell: (mobile: string, text: string) => sms.send(mobile, text),

  smsOutbox: () => sms.recent(),
});

export type ApplicationsService = ReturnType<typeof createApplicationsService>;
