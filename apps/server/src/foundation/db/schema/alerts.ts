import type { ColumnType, Generated } from 'kysely';

type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface NotificationSettingsTable {
  user_id: number;
  wechat: Defaulted<boolean>;
  dingtalk: Defaulted<boolean>;
  webhook_url: string | null;
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

export interface AlertEpisodesTable {
  sn_code: string;
  rule: string;
  started_at: ColumnType<Date, Date | string, Date | string>;
}

export interface FailureCasesTable {
  id: Generated<number>;
  warning_code: string;
  sn_code: Defaulted<string>;
  device_name: Defaulted<string>;
  shootings: ColumnType<unknown, string | undefined, string>;
}
