import type { ColumnType, Generated } from 'kysely';

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
