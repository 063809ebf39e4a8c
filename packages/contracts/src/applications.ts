import { z } from 'zod';
import { applicationMessages } from './applications-messages.ts';
import { text } from './primitives.ts';

// The copy lives in the zod-free applications-messages.ts (the web's first screens); the server
// reads it from here, beside the schemas that use it.
export { applicationMessages };

/**
 * Verification codes: 6 digits, valid 5 minutes, 5 guesses; one send a minute, 5 an hour per
 * phone; 30 an hour per sending address (a factory's Wi-Fi is one address to a server in the
 * cloud: a shift's new hires applying together must get through) and 300 an hour for the whole
 * site (each is a text message paid for; a sender with many addresses stops there).
 */
export const VERIFICATION = {
  codeLength: 6,
  ttlMs: 5 * 60_000,
  maxAttempts: 5,
  resendAfterSeconds: 60,
  maxPerHour: 5,
  maxPerAddressPerHour: 30,
  maxPerHourOverall: 300,
} as const;

export const mobileSchema = text(undefined, applicationMessages.mobileRequired)
  .trim()
  .regex(/^1\d{10}$/, applicationMessages.mobileInvalid);

export const sendCodeBody = z.object({ mobile: mobileSchema });
export type SendCodeBody = z.infer<typeof sendCodeBody>;

/** Seconds before the phone may ask again (the button's countdown). */
export const sendCodeReply = z.object({ retryAfterSeconds: z.number() });
export type SendCodeReply = z.infer<typeof sendCodeReply>;

export const applyForm = z.object({
  name: text(undefined, applicationMessages.nameRequired)
    .trim()
    .min(1, applicationMessages.nameRequired)
    .max(32, applicationMessages.tooLong),
  psnCode: text(undefined, applicationMessages.psnCodeRequired)
    .trim()
    .min(1, applicationMessages.psnCodeRequired)
    .max(32, applicationMessages.tooLong),
  mobile: mobileSchema,
  code: text(undefined, applicationMessages.codeRequired)
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
  token: text(undefined, applicationMessages.notFound)
    .min(1, applicationMessages.notFound)
    .max(128, applicationMessages.notFound),
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
