-- Periodic work that must run once across server instances (plugins/jobs.ts): the period each job
-- last claimed, and whether that run finished (an unfinished claim past its lease is retried).
CREATE TABLE job_runs (
  name text PRIMARY KEY,
  period bigint NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz
);
