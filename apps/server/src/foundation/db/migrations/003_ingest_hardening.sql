-- Ingest hardening (issue 6, section 5). A counter delta the contracts accept (counters go up to
-- 2^53) must fit the minute rollups: a drop on a machine whose count is above 2^31 made a delta
-- that no integer column holds, and the flush failed for every gateway.
ALTER TABLE rollup_minute
  ALTER COLUMN produced TYPE bigint,
  ALTER COLUMN ok TYPE bigint,
  ALTER COLUMN ng TYPE bigint,
  ALTER COLUMN first_pass_ok TYPE bigint,
  ALTER COLUMN gap_produced TYPE bigint;
ALTER TABLE rollup_day ALTER COLUMN max_minute_produced TYPE bigint;

-- A gateway message the database refused even alone: kept raw with its error, and its seq
-- acknowledged, so the gateway moves on. No foreign key: a letter outlives its gateway.
CREATE TABLE dead_letters (
  id bigserial PRIMARY KEY,
  gateway_id text NOT NULL,
  topic text NOT NULL,
  seq bigint NOT NULL,
  payload bytea NOT NULL,
  error text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dead_letters_gateway_idx ON dead_letters (gateway_id, seq);
