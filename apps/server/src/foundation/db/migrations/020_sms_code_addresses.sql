-- Codes are counted per sending address and overall (applications/service.ts): the address a
-- code was asked from (an IPv6 one as its /64), and indexes for both hourly counts.
ALTER TABLE verification_codes ADD COLUMN address text NOT NULL DEFAULT '';
CREATE INDEX verification_codes_address_idx ON verification_codes (address, created_at);
CREATE INDEX verification_codes_created_idx ON verification_codes (created_at);
