-- Monitoring core: identity, plant structure, machines, gateways and the telemetry they produce.

CREATE TABLE users (
  id serial PRIMARY KEY,
  psn_code text NOT NULL UNIQUE,
  name text NOT NULL,
  nick_name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  open_id text UNIQUE,
  dingding_user_id text UNIQUE,
  mobile text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- keyId is never stored: only its SHA-256.
CREATE TABLE sessions (
  key_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE production_lines (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE product_groups (
  id serial PRIMARY KEY,
  line_id integer NOT NULL REFERENCES production_lines (id) ON DELETE CASCADE,
  name text NOT NULL,
  UNIQUE (line_id, name)
);

CREATE TABLE user_lines (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  line_id integer NOT NULL REFERENCES production_lines (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, line_id)
);

-- last_seq: the highest message sequence whose effects are committed (the ack watermark).
CREATE TABLE gateways (
  id text PRIMARY KEY,
  name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  last_seq bigint NOT NULL DEFAULT 0,
  online boolean NOT NULL DEFAULT false,
  state_changed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE devices (
  sn_code text PRIMARY KEY,
  nick_sn_code text NOT NULL DEFAULT '',
  device_name text NOT NULL,
  nick_device_name text NOT NULL DEFAULT '',
  machine_name text NOT NULL DEFAULT '',
  project_name text NOT NULL DEFAULT '',
  line_id integer NOT NULL REFERENCES production_lines (id),
  group_id integer REFERENCES product_groups (id),
  ppm_target double precision NOT NULL DEFAULT 0,
  yield_target double precision NOT NULL DEFAULT 0,
  superiority_rate_target double precision NOT NULL DEFAULT 0,
  use_rate_target double precision NOT NULL DEFAULT 0,
  produce_target_number integer NOT NULL DEFAULT 0,
  ng_target_number integer NOT NULL DEFAULT 0,
  capacity_target integer NOT NULL DEFAULT 0,
  country text NOT NULL DEFAULT '中国',
  province text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  lng double precision,
  lat double precision,
  gateway_id text REFERENCES gateways (id) ON DELETE SET NULL,
  plc_ip text,
  plc_model text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_line_idx ON devices (line_id, group_id, sn_code);
CREATE INDEX devices_gateway_idx ON devices (gateway_id);

-- The last reading committed per machine: the base for counter deltas after a restart.
CREATE TABLE device_live (
  sn_code text PRIMARY KEY REFERENCES devices (sn_code) ON DELETE CASCADE,
  ts timestamptz NOT NULL,
  status smallint NOT NULL,
  idle_reason text,
  produced bigint NOT NULL,
  ok bigint NOT NULL,
  ng bigint NOT NULL,
  first_pass_ok bigint NOT NULL,
  active_alarms text[] NOT NULL DEFAULT '{}'
);

CREATE TABLE rollup_minute (
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  produced integer NOT NULL DEFAULT 0,
  ok integer NOT NULL DEFAULT 0,
  ng integer NOT NULL DEFAULT 0,
  first_pass_ok integer NOT NULL DEFAULT 0,
  running_ms integer NOT NULL DEFAULT 0,
  idle_ms integer NOT NULL DEFAULT 0,
  fault_ms integer NOT NULL DEFAULT 0,
  idle_upstream_ms integer NOT NULL DEFAULT 0,
  idle_downstream_ms integer NOT NULL DEFAULT 0,
  PRIMARY KEY (sn_code, minute)
);

-- Day totals in the factory's time zone, kept in step with rollup_minute by the same transaction.
CREATE TABLE rollup_day (
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  day date NOT NULL,
  produced bigint NOT NULL DEFAULT 0,
  ok bigint NOT NULL DEFAULT 0,
  ng bigint NOT NULL DEFAULT 0,
  first_pass_ok bigint NOT NULL DEFAULT 0,
  running_ms bigint NOT NULL DEFAULT 0,
  idle_ms bigint NOT NULL DEFAULT 0,
  fault_ms bigint NOT NULL DEFAULT 0,
  idle_upstream_ms bigint NOT NULL DEFAULT 0,
  idle_downstream_ms bigint NOT NULL DEFAULT 0,
  max_minute_produced integer NOT NULL DEFAULT 0,
  PRIMARY KEY (sn_code, day)
);
CREATE INDEX rollup_day_day_idx ON rollup_day (day);

CREATE TABLE status_changes (
  id bigserial PRIMARY KEY,
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  ts timestamptz NOT NULL,
  status smallint NOT NULL,
  idle_reason text
);
CREATE INDEX status_changes_sn_ts_idx ON status_changes (sn_code, ts);

CREATE TABLE alarms (
  id bigserial PRIMARY KEY,
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  code text NOT NULL,
  begin_at timestamptz NOT NULL,
  end_at timestamptz
);
CREATE INDEX alarms_sn_begin_idx ON alarms (sn_code, begin_at);
CREATE UNIQUE INDEX alarms_open_idx ON alarms (sn_code, code) WHERE end_at IS NULL;

CREATE TABLE operation_logs (
  id bigserial PRIMARY KEY,
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  ts timestamptz NOT NULL,
  comment text NOT NULL,
  set_value text NOT NULL,
  user_name text NOT NULL
);
CREATE INDEX operation_logs_sn_ts_idx ON operation_logs (sn_code, ts);

-- Subscribed machines (isFollow / isCollect); the subscriptions issue adds its settings.
CREATE TABLE user_follows (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  PRIMARY KEY (user_id, sn_code)
);
