-- Messaging-app identities, one row per (provider, subject): a WeChat openid and a DingTalk userid
-- live in separate namespaces, so one provider's id can never sign in as another's account (two
-- columns on users could not say which provider a lookup meant once both were searched). A user
-- has at most one identity per provider; binding a new one replaces the old.
CREATE TABLE user_identities (
  provider text NOT NULL CHECK (provider IN ('wechat', 'dingtalk')),
  subject text NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject),
  UNIQUE (provider, user_id)
);

INSERT INTO user_identities (provider, subject, user_id)
SELECT 'wechat', open_id, id FROM users WHERE open_id IS NOT NULL;
INSERT INTO user_identities (provider, subject, user_id)
SELECT 'dingtalk', dingding_user_id, id FROM users WHERE dingding_user_id IS NOT NULL;

ALTER TABLE users DROP COLUMN open_id;
ALTER TABLE users DROP COLUMN dingding_user_id;

-- How a session was signed in decides what signing out undoes (unbind WeChat, unbind DingTalk,
-- or only end the session).
ALTER TABLE sessions
  ADD COLUMN signed_in_with text NOT NULL DEFAULT 'password'
  CHECK (signed_in_with IN ('password', 'wechat', 'dingtalk'));
