-- FACA (issue 11): quality questions on a machine, their fault analyses (FA), corrective actions
-- (CA) handed to people as tasks, and the pictures and videos attached to them. Status flags are
-- derived on read (overdue depends on the clock), never stored.
CREATE TABLE faca_workmanships (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE faca_influence_parameters (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);

-- Uploaded files. id is random (also the stored name); owner is who uploaded it, faca_id the
-- question it was attached to (null until a form that names it is saved): only the uploader may
-- attach it, and once attached it is visible to whoever may see that question's machine.
CREATE TABLE media (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('pic', 'video')),
  mime text NOT NULL,
  ext text NOT NULL,
  size integer NOT NULL,
  has_thumb boolean NOT NULL DEFAULT false,
  owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  faca_id integer,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE faca_questions (
  id serial PRIMARY KEY,
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  workmanship text NOT NULL,
  count integer NOT NULL,
  warning_content text NOT NULL,
  faca_description text NOT NULL,
  time_length bigint NOT NULL,
  influence_parameters text NOT NULL,
  data_from text NOT NULL,
  pic_ids text[] NOT NULL DEFAULT '{}',
  video_ids text[] NOT NULL DEFAULT '{}',
  update_user text NOT NULL,
  update_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faca_questions_by_sn ON faca_questions (sn_code);

CREATE TABLE faca_fas (
  id serial PRIMARY KEY,
  faca_id integer NOT NULL REFERENCES faca_questions (id) ON DELETE CASCADE,
  fa_num integer NOT NULL,
  fa_description text NOT NULL,
  pic_ids text[] NOT NULL DEFAULT '{}',
  video_ids text[] NOT NULL DEFAULT '{}',
  update_user text NOT NULL,
  update_time timestamptz NOT NULL DEFAULT now(),
  UNIQUE (faca_id, fa_num)
);

-- handler_ids: the task's handlers (the wire's comma-separated `handler`). status is the CA
-- status and the task's treatment: 0 pending, 1 OK, 2 NG (docs/architecture.md).
CREATE TABLE faca_cas (
  id serial PRIMARY KEY,
  faca_id integer NOT NULL REFERENCES faca_questions (id) ON DELETE CASCADE,
  fa_id integer NOT NULL REFERENCES faca_fas (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  ca_description text NOT NULL,
  handler_ids integer[] NOT NULL DEFAULT '{}',
  resolving_time text NOT NULL,
  status smallint NOT NULL DEFAULT 0,
  ng_reason text NOT NULL DEFAULT '',
  pic_ids text[] NOT NULL DEFAULT '{}',
  video_ids text[] NOT NULL DEFAULT '{}',
  result_pic_ids text[] NOT NULL DEFAULT '{}',
  update_user text NOT NULL,
  update_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faca_cas_by_question ON faca_cas (faca_id);
CREATE INDEX faca_cas_by_handler ON faca_cas USING gin (handler_ids);
