-- An alarm message says which alarm it is about, so the inbox can start a FACA question from it
-- (issue 11): the machine and the alarm content, as the question form takes them. NULL for every
-- other kind of message.
ALTER TABLE notifications ADD COLUMN alarm_sn_code text;
ALTER TABLE notifications ADD COLUMN alarm_content text;
