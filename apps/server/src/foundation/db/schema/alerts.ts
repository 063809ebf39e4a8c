import type { ColumnType, Generated } from 'kysely';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface NotificationSettingsTable {
  user_id: number;
  wechat: Defaulted<boolean>;
  dingtalk: Defaulted<boolean>;
  webhook_url: string | null;
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
