-- Administration (issue 12): disabled accounts, account applications with their SMS codes, and
-- the audit log of every administrative change.

-- A disabled user cannot sign in and has no session; re-enabling gives the account back as it was.
ALTER TABLE users ADD COLUMN disabled boolean NOT NULL DEFAULT false;

-- One row per code sent. Only the code's hash is kept; used_at makes it single-use. The rows of
-- the last hour are also the per-phone send throttle, so it holds across server instances.
CREATE TABLE verification_codes (
  id bigserial PRIMARY KEY,
  mobile text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- wrong guesses: the fifth voids the code (a 6-digit code must not be guessable)
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_codes_mobile_idx ON verification_codes (mobile, created_at DESC);

-- An applicant reads their progress with the token the submit answered (kept in the browser);
-- only its hash is stored. status: pending | approved | rejected.
CREATE TABLE account_applications (
  id serial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  name text NOT NULL,
  psn_code text NOT NULL,
  mobile text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  reason text NOT NULL DEFAULT '',
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz
);
CREATE INDEX account_applications_status_idx ON account_applications (status, id DESC);
-- One open application per employee number.
CREATE UNIQUE INDEX account_applications_pending_idx ON account_applications (psn_code)
  WHERE status = 'pending';

-- actor_id is null for the command line (actor_name says 'cli'). before/after: the changed
-- record as it was and as it became (null when created / removed); never a password.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  actor_id integer REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_idx ON audit_log (id DESC);
