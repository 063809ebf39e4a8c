-- The in-app inbox: one row per message to one user. Every domain that tells a person something
-- (alerts, reports, FACA task assignments) goes through notifications/service.ts, which writes here
-- in the caller's transaction. dedupe_key makes a message once per (user, event): a retried or
-- replayed cause writes nothing new.
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  link text,
  dedupe_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  UNIQUE (user_id, dedupe_key)
);

CREATE INDEX notifications_by_user ON notifications (user_id, id DESC);
