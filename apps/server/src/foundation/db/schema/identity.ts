import type { ColumnType } from 'kysely';

export type IdentityProvider = 'wechat' | 'dingtalk';

export interface UserIdentitiesTable {
  provider: IdentityProvider;
  subject: string;
  user_id: number;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type SignedInWith = 'password' | IdentityProvider;

/** A platform's once-per-application value (migration 018), shared by every instance. */
export interface ProviderCredentialsTable {
  name: string;
  value: ColumnType<string, string | undefined, string>;
  expires_at: ColumnType<Date, Date | string | undefined, Date | string>;
  refreshing_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Pending identities already bound (migration 019): each binds once. */
export interface SpentPendingIdentitiesTable {
  id: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}
