import {
  applicationMessages,
  VERIFICATION,
  type ApplyForm,
} from '@linewatch/contracts/applications';
import { adminMessages } from '@linewatch/contracts/admin';
import { ReplyCode } from '@linewatch/contracts/envelope';
import ipaddr from 'ipaddr.js';
import { randomInt } from 'node:crypto';
import type { Db } from '../foundation/db/database.ts';
import { DomainError, invalidField, notFound, refused } from '../foundation/http/envelope.ts';
import { newToken, sha256 } from '../foundation/shared/secrets.ts';
import {
  createApplicationsRepository,
  type Application,
  type ApplicationsRepository,
} from './repository.ts';
import type { SmsChannel } from './sms.ts';

const HOUR = 3_600_000;

// The phone is part of the hash, so one code cannot be replayed for another phone.
const codeHash = (mobile: string, code: string) => sha256(`${mobile}:${code}`);

/**
 * The sender an address stands for: an IPv4 address (also one written as IPv4-mapped IPv6), or
 * the /64 of an IPv6 one — a subscriber is given a whole /64 and may use any address in it.
 */
export const addressKey = (address: string): string => {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
};

export interface SendLimits {
  maxPerAddressPerHour: number;
  maxPerHourOverall: number;
}

const secondsUntil = (time: number, now: Date) =>
  Math.max(Math.ceil((time - now.getTime()) / 1000), 0);

export const createApplicationsService = (
  repo: ApplicationsRepository,
  sms: SmsChannel,
  limits: SendLimits = VERIFICATION,
) => ({
  /**
   * Sends a code unless this phone had one within a minute or five within the hour, its address
   * asked for `maxPerAddressPerHour` within the hour, or the site sent `maxPerHourOverall`.
   * Counted in the database, where the codes are, under one lock: a limit in each instance's
   * memory would let N instances send N times as many.
   */
  async sendCode(
    mobile: string,
    address: string,
    now = new Date(),
  ): Promise<{ retryAfterSeconds: number }> {
    const code = String(randomInt(0, 10 ** VERIFICATION.codeLength)).padStart(
      VERIFICATION.codeLength,
      '0',
    );
    const sender = addressKey(address);
    const hourAgo = new Date(now.getTime() - HOUR);
    await repo.withSendingLocked(mobile, async (r) => {
      const sent = await r.sentSince(mobile, hourAgo);
      const wait = sent[0]
        ? secondsUntil(sent[0].getTime() + VERIFICATION.resendAfterSeconds * 1000, now)
        : 0;
      if (wait > 0 || sent.length >= VERIFICATION.maxPerHour) {
        throw new DomainError(ReplyCode.refused, applicationMessages.sendTooSoon, {
          retryAfterSeconds: wait,
        });
      }
      const fromAddress = await r.countSince(hourAgo, sender);
      if (fromAddress.count >= limits.maxPerAddressPerHour)
        throw new DomainError(ReplyCode.refused, applicationMessages.sendTooSoon, {
          retryAfterSeconds: secondsUntil((fromAddress.oldest?.getTime() ?? 0) + HOUR, now),
        });
      const overall = await r.countSince(hourAgo);
      if (overall.count >= limits.maxPerHourOverall)
        throw new DomainError(ReplyCode.refused, applicationMessages.sendLimitReached, {
          retryAfterSeconds: secondsUntil((overall.oldest?.getTime() ?? 0) + HOUR, now),
        });
      await r.insertCode(
        mobile,
        sender,
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

  async progress(token: string): Promise<Application> {
    const application = await repo.findByToken(sha256(token));
    if (!application) throw new DomainError(ReplyCode.notFound, applicationMessages.notFound);
    return application;
  },

  /** Every application, for the administrators (pending first). */
  list: (): Promise<Application[]> => repo.list(),

  /** A pending application, else why not (an administrator approving or rejecting it). */
  async mustPending(id: number): Promise<Application> {
    const application = await repo.findById(id);
    if (!application) throw notFound(adminMessages.applicationNotFound);
    if (application.status !== 'pending')
      throw invalidField('id', adminMessages.applicationDecided);
    return application;
  },

  /**
   * Records an administrator's decision in `tx`, the decider's transaction: an approval commits
   * with the account it creates (users/service.ts), or not at all.
   */
  decide: (
    tx: Db,
    id: number,
    decision: { status: 'approved' | 'rejected'; reason: string; userId: number | null },
  ) => createApplicationsRepository(tx).decide(id, decision),

  /** Tells an applicant something by SMS (their initial password on approval). */
  tell: (mobile: string, text: string) => sms.send(mobile, text),

  smsOutbox: () => sms.recent(),
});

export type ApplicationsService = ReturnType<typeof createApplicationsService>;
export type { Application };
