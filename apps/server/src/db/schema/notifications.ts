import type { ColumnType, Generated } from 'kysely';

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  dedupe_key: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
