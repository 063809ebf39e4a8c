import type {
  ApplicationProgress,
  ApplicationProgressBody,
  ApplyForm,
  ApplyReply,
  SendCodeBody,
  SendCodeReply,
  SmsMessage,
} from './applications.ts';
import { endpoint } from './endpoint.ts';

/** Account application (public) and the embedded SMS outbox (admins); schemas in applications.ts. */
export const applicationsApi = {
  sendCode: endpoint<SendCodeBody, SendCodeReply>('POST', '/api/apply/sendCode'),
  apply: endpoint<ApplyForm, ApplyReply>('POST', '/api/apply/submit'),
  // A POST so the token stays out of URLs (logs, proxies, history).
  progress: endpoint<ApplicationProgressBody, ApplicationProgress>('POST', '/api/apply/progress'),
  smsOutbox: endpoint<void, SmsMessage[]>('GET', '/api/admin/sms'),
} as const;
