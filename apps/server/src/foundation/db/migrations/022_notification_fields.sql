-- A message's short facts, apart from its text (issue 23): the machine's SN and name and what
-- happened, as a WeChat template shows them, one per field of at most 20 characters, since WeChat
-- no longer shows a message's first line or remark. '{}' for messages written before.
ALTER TABLE notifications ADD COLUMN fields jsonb NOT NULL DEFAULT '{}';
