import type { ColumnType, Generated } from 'kysely';

/** Bindings and credentials: who did what, when (migration 010). */
export interface GatewayAuditTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | string | undefined, Date | string>;
  user_id: number | null;
  user_name: string;
  action: 'bind' | 'unbind' | 'register' | 'rotate';
  gateway_id: string;
  sn_code: string | null;
  detail: ColumnType<string, string | undefined, string>;
}
