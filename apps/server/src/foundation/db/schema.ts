import type { ColumnType, Generated } from 'kysely';
import type { AlarmManualsTable } from './schema/history.ts';
import type {
  ProviderCredentialsTable,
  SignedInWith,
  SpentPendingIdentitiesTable,
  UserIdentitiesTable,
} from './schema/identity.ts';
import type {
  AlertEpisodesTable,
  FailureCasesTable,
  NotificationSettingsTable,
} from './schema/alerts.ts';
import type {
  AccountApplicationsTable,
  AuditLogTable,
  SmsOutboxTable,
  VerificationCodesTable,
} from './schema/admin.ts';
import type { NotificationsTable, OutboxTable } from './schema/notifications.ts';
import type {
  FacaCasTable,
  FacaFasTable,
  FacaOptionTable,
  FacaQuestionsTable,
  MediaTable,
} from './schema/faca.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;
type Count = ColumnType<number, number | undefined, number>;

export interface UsersTable {
  id: Generated<number>;
  psn_code: string;
  name: string;
  nick_name: ColumnType<string, string | undefined, string>;
  password_hash: string;
  is_admin: ColumnType<boolean, boolean | undefined, boolean>;
  mobile: string | null;
  disabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultNow;
}

export interface SessionsTable {
  key_hash: string;
  user_id: number;
  expires_at: Timestamp;
  signed_in_with: ColumnType<SignedInWith, SignedInWith | undefined, SignedInWith>;
  created_at: DefaultNow;
}

export interface ProductionLinesTable {
  id: Generated<number>;
  name: string;
  sort: Count;
}

export interface ProductGroupsTable {
  id: Generated<number>;
  line_id: number;
  name: string;
}

export interface UserLinesTable {
  user_id: number;
  line_id: number;
}

export interface GatewaysTable {
  id: string;
  name: ColumnType<string, string | undefined, string>;
  password_hash: string;
  last_seq: Count;
  online: ColumnType<boolean, boolean | undefined, boolean>;
  state_changed_at: Timestamp | null;
  created_at: DefaultNow;
  agent_version: ColumnType<string | null, string | null | undefined, string | null>;
  last_seen_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface DevicesTable {
  sn_code: string;
  nick_sn_code: ColumnType<string, string | undefined, string>;
  device_name: string;
  nick_device_name: ColumnType<string, string | undefined, string>;
  machine_name: ColumnType<string, string | undefined, string>;
  project_name: ColumnType<string, string | undefined, string>;
  line_id: number;
  group_id: number | null;
  ppm_target: Count;
  yield_target: Count;
  superiority_rate_target: Count;
  use_rate_target: Count;
  produce_target_number: Count;
  ng_target_number: Count;
  capacity_target: Count;
  /** Parts per minute the machine can make at most (counter plausibility); null: 3 × ppm_target. */
  max_ppm: ColumnType<number | null, number | null | undefined, number | null>;
  country: ColumnType<string, string | undefined, string>;
  province: ColumnType<string, string | undefined, string>;
  city: ColumnType<string, string | undefined, string>;
  lng: number | null;
  lat: number | null;
  gateway_id: string | null;
  plc_ip: string | null;
  /** The PLC's Modbus TCP port and unit id (migration 026): with plc_ip, one PLC of a gateway. */
  plc_port: ColumnType<number | null, number | null | undefined, number | null>;
  plc_unit_id: ColumnType<number | null, number | null | undefined, number | null>;
  plc_model: string | null;
  created_at: DefaultNow;
}

export interface DeviceLiveTable {
  sn_code: string;
  ts: Timestamp;
  status: number;
  idle_reason: string | null;
  produced: number;
  ok: number;
  ng: number;
  first_pass_ok: number;
  active_alarms: ColumnType<string[], string[] | undefined, string[]>;
}

interface RollupFigures {
  produced: Count;
  ok: Count;
  ng: Count;
  first_pass_ok: Count;
  running_ms: Count;
  idle_ms: Count;
  fault_ms: Count;
  idle_upstream_ms: Count;
  idle_downstream_ms: Count;
  /** Of produced, the parts counted across a silence (in no observed minute). */
  gap_produced: Count;
}

export interface RollupMinuteTable extends RollupFigures {
  sn_code: string;
  minute: Timestamp;
}

/** Kept for good: a day's hours once its minutes are past the retention. */
export interface RollupHourTable extends RollupFigures {
  sn_code: string;
  /** The instant the factory's hour begins (in its time zone). */
  hour: Timestamp;
  max_minute_produced: Count;
  /** The minutes PPM covers (shared/metrics.ts, isCoveredMinute). */
  covered_minutes: Count;
}

export interface RollupDayTable extends RollupFigures {
  sn_code: string;
  /** 'YYYY-MM-DD' in the factory's time zone. */
  day: ColumnType<string, string, string>;
  max_minute_produced: Count;
  /** The minutes PPM covers (shared/metrics.ts, isCoveredMinute). */
  covered_minutes: Count;
}

export interface StatusChangesTable {
  id: Generated<number>;
  sn_code: string;
  ts: Timestamp;
  status: number;
  idle_reason: string | null;
}

export interface AlarmsTable {
  id: Generated<number>;
  sn_code: string;
  code: string;
  begin_at: Timestamp;
  end_at: Timestamp | null;
}

export interface AlarmDefinitionsTable {
  code: string;
  description: string;
}

export interface OperationLogsTable {
  id: Generated<number>;
  sn_code: string;
  ts: Timestamp;
  comment: string;
  set_value: string;
  user_name: string;
}

export interface UserFollowsTable {
  user_id: number;
  sn_code: string;
  /** The subscription's settings (migration 009); id is the spec's userFollowSnId. */
  id: Generated<number>;
  real_time_reminder: ColumnType<boolean, boolean | undefined, boolean>;
  three_parameters: ColumnType<boolean, boolean | undefined, boolean>;
  alarm: ColumnType<boolean, boolean | undefined, boolean>;
  daily: ColumnType<boolean, boolean | undefined, boolean>;
  week: ColumnType<boolean, boolean | undefined, boolean>;
  time_length: Count;
}

export interface JobRunsTable {
  name: string;
  period: number;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface DeadLettersTable {
  id: Generated<number>;
  gateway_id: string;
  topic: string;
  seq: number;
  payload: Uint8Array;
  error: string;
  received_at: DefaultNow;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  production_lines: ProductionLinesTable;
  product_groups: ProductGroupsTable;
  user_lines: UserLinesTable;
  gateways: GatewaysTable;
  devices: DevicesTable;
  device_live: DeviceLiveTable;
  rollup_minute: RollupMinuteTable;
  rollup_hour: RollupHourTable;
  rollup_day: RollupDayTable;
  status_changes: StatusChangesTable;
  alarms: AlarmsTable;
  alarm_definitions: AlarmDefinitionsTable;
  operation_logs: OperationLogsTable;
  user_follows: UserFollowsTable;
  job_runs: JobRunsTable;
  dead_letters: DeadLettersTable;
  notifications: NotificationsTable;
  alarm_manuals: AlarmManualsTable;
  faca_workmanships: FacaOptionTable;
  faca_influence_parameters: FacaOptionTable;
  media: MediaTable;
  faca_questions: FacaQuestionsTable;
  faca_fas: FacaFasTable;
  faca_cas: FacaCasTable;
  user_identities: UserIdentitiesTable;
  provider_credentials: ProviderCredentialsTable;
  spent_pending_identities: SpentPendingIdentitiesTable;
  notification_settings: NotificationSettingsTable;
  outbox: OutboxTable;
  alert_episodes: AlertEpisodesTable;
  failure_cases: FailureCasesTable;
  verification_codes: VerificationCodesTable;
  sms_outbox: SmsOutboxTable;
  account_applications: AccountApplicationsTable;
  audit_log: AuditLogTable;
}
