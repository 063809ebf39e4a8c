import type { ColumnType, Generated } from 'kysely';

type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;

export interface VerificationCodesTable {
  id: Generated<number>;
  mobile: string;
  code_hash: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  attempts: ColumnType<number, number | undefined, number>;
  /** Who asked: the address key of applications/service.ts (an IPv6 address as its /64). */
  address: ColumnType<string, string | undefined, string>;
  created_at: DefaultNow;
}

/** The embedded SMS channel's messages (applications/sms.ts), newest read first. */
export interface SmsOutboxTable {
  id: Generated<number>;
  mobile: string;
  text: string;
  sent_at: DefaultNow;
}

export type ApplicationStatus = 'pending' | 'approved' | 'rejected';

export interface AccountApplicationsTable {
  id: Generated<number>;
  token_hash: string;
  name: string;
  psn_code: string;
  mobile: string;
  status: ColumnType<ApplicationStatus, ApplicationStatus | undefined, ApplicationStatus>;
  reason: ColumnType<string, string | undefined, string>;
  user_id: number | null;
  created_at: DefaultNow;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target: string;
  /** JSON text on insert (JSON.stringify), parsed object on select. */
  before: Json;
  after: Json;
  /** Failed sign-ins counted into one entry (migration 024); null for every other entry. */
  aggregate_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultNow;
}
