-- Who created a CA (its assigner) may change its handlers, beside the handlers and admins
-- (docs/architecture.md "FACA and uploads"). Rows from before have none: their handlers decide.
ALTER TABLE faca_cas ADD COLUMN created_by integer REFERENCES users (id) ON DELETE SET NULL;
