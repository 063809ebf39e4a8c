-- A channel that takes a message before delivering it (DingTalk's asyncsend_v2: errcode 0 is the
-- task taken) leaves the row 'accepted' with the service's receipt (the task_id) until the
-- service says the person got it ('sent') or did not ('failed'): the outbox asks again meanwhile.
ALTER TABLE outbox ADD COLUMN receipt text;
ALTER TABLE outbox ADD COLUMN accepted_at timestamptz;
DROP INDEX outbox_due_idx;
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE status IN ('pending', 'accepted');
