import type { ColumnType, Generated } from 'kysely';

type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  dedupe_key: string;
  /** An alarm message's machine and alarm content (migration 017); null for other kinds. */
  alarm_sn_code: ColumnType<string | null, string | null | undefined, string | null>;
  alarm_content: ColumnType<string | null, string | null | undefined, string | null>;
  /** The message's short facts for template fields (migration 020; notifications NoticeFields). */
  fields: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** 'accepted': taken by a channel that delivers later, its receipt to be confirmed (migration 023). */
export type OutboxStatus = 'pending' | 'accepted' | 'sent' | 'failed';

export interface OutboxTable {
  id: Generated<string>;
  notification_id: number | string;
  channel: string;
  target: string;
  status: Defaulted<OutboxStatus>;
  attempts: Defaulted<number>;
  next_attempt_at: DefaultNow;
  locked_until: NullableTime;
  last_error: string | null;
  sent_at: NullableTime;
  receipt: ColumnType<string | null, string | null | undefined, string | null>;
  accepted_at: NullableTime;
  created_at: DefaultNow;
}
