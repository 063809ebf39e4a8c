import type { ColumnType } from 'kysely';

export type IdentityProvider = 'wechat' | 'dingtalk';

export interface UserIdentitiesTable {
  provider: IdentityProvider;
  subject: string;
  user_id: number;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type SignedInWith = 'password' | IdentityProvider;
