-- Average PPM above max PPM just after a machine started (issue 25): the average divided the
-- parts by the running time (15 s of running and 9 parts read 36) while max PPM was the best
-- whole minute's count (9). Both now cover the same minutes: those with running time or observed
-- parts (shared/metrics.ts, isCoveredMinute); the average is the parts over how many, so it is
-- never above the best of them. The hour and day rows keep the count; a minute row is its own.
ALTER TABLE rollup_hour ADD COLUMN covered_minutes integer NOT NULL DEFAULT 0;
ALTER TABLE rollup_day ADD COLUMN covered_minutes integer NOT NULL DEFAULT 0;

-- Hours whose minutes are kept: counted from them. Hours past the minutes' retention: the
-- running time in whole minutes, rounded up (a run split over minutes covers one more at most).
UPDATE rollup_hour AS h SET covered_minutes = coalesce(
  (SELECT count(*) FROM rollup_minute AS m
    WHERE m.sn_code = h.sn_code AND m.minute >= h.hour AND m.minute < h.hour + interval '1 hour'
      AND (m.running_ms > 0 OR m.produced > m.gap_produced)
    HAVING count(*) > 0),
  least(60, greatest(ceil(h.running_ms / 60000.0), CASE WHEN h.produced > h.gap_produced THEN 1 ELSE 0 END)));

UPDATE rollup_day AS d SET covered_minutes = coalesce(
  (SELECT sum(h.covered_minutes) FROM rollup_hour AS h
    WHERE h.sn_code = d.sn_code
      AND (h.hour AT TIME ZONE current_setting('linewatch.time_zone'))::date = d.day),
  0);
