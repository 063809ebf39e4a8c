import { z } from 'zod';
import { text } from './primitives.ts';

/** Account application (/userApply, /userAudit): copy shared by the form and the server. */
export const applicationMessages = {
  nameRequired: '请输入姓名',
  psnCodeRequired: '请输入工号',
  mobileInvalid: '请输入正确的手机号',
  codeRequired: '请输入验证码',
  codeInvalid: '验证码错误或已过期',
  sendTooSoon: '验证码发送过于频繁，请稍后再试',
  codeSent: '验证码已发送',
  tooLong: '内容过长',
  submitted: '申请已提交',
  accountExists: '该工号已有账号，请直接登录',
  pendingExists: '该工号已有待审核的申请',
  notFound: '未找到申请记录',
} as const;

/** Verification codes: 6 digits, valid 5 minutes, 5 guesses; one send a minute, 5 an hour. */
export const VERIFICATION = {
  codeLength: 6,
  ttlMs: 5 * 60_000,
  maxAttempts: 5,
  resendAfterSeconds: 60,
  maxPerHour: 5,
} as const;

export const mobileSchema = text()
  .trim()
  .regex(/^1\d{10}$/, applicationMessages.mobileInvalid);

export const sendCodeBody = z.object({ mobile: mobileSchema });
export type SendCodeBody = z.infer<typeof sendCodeBody>;

/** Seconds before the phone may ask again (the button's countdown). */
export const sendCodeReply = z.object({ retryAfterSeconds: z.number() });
export type SendCodeReply = z.infer<typeof sendCodeReply>;

export const applyForm = z.object({
  name: text().trim().min(1, applicationMessages.nameRequired).max(32, applicationMessages.tooLong),
  psnCode: text()
    .trim()
    .min(1, applicationMessages.psnCodeRequired)
    .max(32, applicationMessages.tooLong),
  mobile: mobileSchema,
  code: text()
    .trim()
    .min(1, applicationMessages.codeRequired)
    .regex(/^\d{6}$/, applicationMessages.codeInvalid),
});
export type ApplyForm = z.infer<typeof applyForm>;

/**
 * The applicant's key to their application: the browser keeps it (localStorage) and /userAudit
 * reads the progress with it. Only its hash is stored.
 */
export const applyReply = z.object({ token: z.string() });
export type ApplyReply = z.infer<typeof applyReply>;

export const applicationProgressBody = z.object({
  token: text().min(1, applicationMessages.notFound).max(128, applicationMessages.notFound),
});
export type ApplicationProgressBody = z.infer<typeof applicationProgressBody>;

export const applicationStatus = z.enum(['pending', 'approved', 'rejected']);
export type ApplicationStatus = z.infer<typeof applicationStatus>;

/** What the applicant sees: the phone masked, the account (their employee number) once approved. */
export const applicationProgress = z.object({
  name: z.string(),
  psnCode: z.string(),
  mobile: z.string(),
  status: applicationStatus,
  reason: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type ApplicationProgress = z.infer<typeof applicationProgress>;

/** One message the embedded SMS channel "sent" (admin screen, for sites with no SMS provider). */
export const smsMessage = z.object({ mobile: z.string(), text: z.string(), sentAt: z.string() });
export type SmsMessage = z.infer<typeof smsMessage>;
