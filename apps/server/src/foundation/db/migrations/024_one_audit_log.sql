-- One audit log for the admin's audit page (issue 23): gateway registrations, credential
-- rotations, bindings and unbindings were written to gateway_audit, which no screen read. They
-- move to audit_log (action gateway.<what>, target gateway:<id>) and gateway_audit goes.
INSERT INTO audit_log (actor_id, actor_name, action, target, before, after, created_at)
SELECT user_id, user_name, 'gateway.' || action, 'gateway:' || gateway_id, NULL,
  jsonb_strip_nulls(jsonb_build_object('snCode', sn_code, 'detail', NULLIF(detail, ''))), at
FROM gateway_audit ORDER BY id;
DROP TABLE gateway_audit;

-- Failed sign-ins are counted into one entry per account (or per address) and quarter hour
-- instead of one each: aggregate_key names that entry (identity's repository); NULL for the rest.
ALTER TABLE audit_log ADD COLUMN aggregate_key text;
CREATE UNIQUE INDEX audit_log_aggregate_idx ON audit_log (aggregate_key) WHERE aggregate_key IS NOT NULL;
