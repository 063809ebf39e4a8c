import type { ApplicationProgress, SmsMessage } from '@linewatch/contracts/applications';
import type { Application } from './repository.ts';
import type { SentSms } from './sms.ts';

/** 138****0000: the progress page names the phone without giving it away. */
export const maskMobile = (mobile: string) =>
  mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;

/** An application's progress for its applicant; not yet decided: `decidedAt` null. */
export const presentProgress = (a: Application): ApplicationProgress => ({
  name: a.name,
  psnCode: a.psnCode,
  mobile: maskMobile(a.mobile),
  status: a.status,
  reason: a.reason,
  createdAt: a.createdAt.toISOString(),
  decidedAt: a.decidedAt?.toISOString() ?? null,
});

export const presentSms = (m: SentSms): SmsMessage => ({
  mobile: m.mobile,
  text: m.text,
  sentAt: m.sentAt.toISOString(),
});
