-- A pending identity (the signed cookie a WeChat / DingTalk sign-in leaves until the password form
-- binds it) is bound once: its id is recorded here with the binding, in the same transaction, so
-- the same cookie replayed within its ten minutes cannot move the identity to another account.
-- Rows are kept until the cookie would have expired anyway.
CREATE TABLE spent_pending_identities (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spent_pending_identities_expiry_idx ON spent_pending_identities (expires_at);
