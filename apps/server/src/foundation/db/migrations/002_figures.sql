-- Figures that stay true (docs/design.md section 5).

-- The most parts per minute a machine can make: a counter rising faster is a re-baseline.
-- NULL: judged against 3 × ppm_target.
ALTER TABLE devices ADD COLUMN max_ppm double precision;

-- Of produced, the parts counted across a silence longer than the gap limit: they are in the
-- period's totals but in no observed minute (not in max PPM, not in PPM's numerator).
ALTER TABLE rollup_minute ADD COLUMN gap_produced integer NOT NULL DEFAULT 0;
ALTER TABLE rollup_day ADD COLUMN gap_produced bigint NOT NULL DEFAULT 0;
