-- Values a messaging platform allows once per application, kept in one row that every server
-- instance reads (issue 22): DingTalk's jsapi_ticket. DingTalk asks for it to be stored in the
-- database and refreshed under a lock, since fetching it again may overwrite the ticket other
-- pages signed with. One instance at a time fetches a new value: it holds refreshing_until, a
-- lease, meanwhile; the others sign with the stored value while it is valid, or wait for it.
CREATE TABLE provider_credentials (
  name text PRIMARY KEY,
  value text NOT NULL DEFAULT '',
  expires_at timestamptz NOT NULL DEFAULT 'epoch',
  refreshing_until timestamptz
);
