-- Identity and administration (issue 12), second pass: the embedded SMS channel's messages live
-- in the database, so every server instance on it writes to and reads the same list (the admin
-- screen shows a code whichever instance sent it, the CLI's approval included).

-- What the embedded channel "sent" (no SMS provider): the admin screen reads the newest 50.
-- It holds codes and initial passwords in clear, like the log: rows older than a day, or beyond
-- the newest 50, are deleted as new ones are written.
CREATE TABLE sms_outbox (
  id bigserial PRIMARY KEY,
  mobile text NOT NULL,
  text text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
