-- Issue 10: the gateway registry (agent version, last message heard) and the audit trail of
-- bindings and credentials: who did what to which gateway and machine, when.
ALTER TABLE gateways ADD COLUMN agent_version text;
ALTER TABLE gateways ADD COLUMN last_seen_at timestamptz;

CREATE TABLE gateway_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  -- null: the admin CLI (no signed-in user)
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  user_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('bind', 'unbind', 'register', 'rotate')),
  gateway_id text NOT NULL,
  sn_code text,
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX gateway_audit_gateway_idx ON gateway_audit (gateway_id, at);
CREATE INDEX gateway_audit_sn_idx ON gateway_audit (sn_code, at);
