-- Storage that stays fast for years (issue 22; docs/architecture.md, "Storage").
--
-- rollup_minute grows by 1,440 rows a machine a day (14.4 million at 10,000 machines). It
-- becomes partitioned by range of `minute`, one partition per UTC day named
-- rollup_minute_pYYYYMMDD: a day is the unit the retention drops (a week or a month would keep
-- up to 6 or 30 days beyond MINUTE_RETENTION_DAYS: 15 or 75 GiB at 10,000 machines), a day's
-- primary key (about 1 GiB at 10,000 machines) stays in memory while it is written, and 90 days
-- make about 95 partitions, which the planner prunes to the one or two a query touches. UTC, not
-- the factory's zone: a partition's bounds never depend on configuration. The DEFAULT partition
-- takes any minute no day partition covers (a reading far in the past or future), so no flush
-- is ever refused for want of a partition; the partition job (db/minute-partitions.ts)
-- makes the days ahead, moves what the default holds into days of its own and drops whole days
-- older than the retention.
--
-- rollup_hour (the factory's hours), kept for good like rollup_day, answers every view of a day
-- by hour once that day's minutes are gone.

ALTER TABLE rollup_minute RENAME TO rollup_minute_unpartitioned;
ALTER TABLE rollup_minute_unpartitioned
  RENAME CONSTRAINT rollup_minute_pkey TO rollup_minute_unpartitioned_pkey;
ALTER TABLE rollup_minute_unpartitioned
  RENAME CONSTRAINT rollup_minute_sn_code_fkey TO rollup_minute_unpartitioned_sn_code_fkey;

-- The counts first, then the times: no alignment padding between them.
CREATE TABLE rollup_minute (
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  produced bigint NOT NULL DEFAULT 0,
  ok bigint NOT NULL DEFAULT 0,
  ng bigint NOT NULL DEFAULT 0,
  first_pass_ok bigint NOT NULL DEFAULT 0,
  gap_produced bigint NOT NULL DEFAULT 0,
  running_ms integer NOT NULL DEFAULT 0,
  idle_ms integer NOT NULL DEFAULT 0,
  fault_ms integer NOT NULL DEFAULT 0,
  idle_upstream_ms integer NOT NULL DEFAULT 0,
  idle_downstream_ms integer NOT NULL DEFAULT 0,
  PRIMARY KEY (sn_code, minute)
) PARTITION BY RANGE (minute);

CREATE TABLE rollup_minute_default PARTITION OF rollup_minute DEFAULT;

-- A day partition for every UTC day that has minutes (the job makes the days ahead).
DO $$
DECLARE
  d date;
BEGIN
  FOR d IN SELECT DISTINCT (minute AT TIME ZONE 'UTC')::date FROM rollup_minute_unpartitioned
  LOOP
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF rollup_minute FOR VALUES FROM (%L) TO (%L)',
      'rollup_minute_p' || to_char(d, 'YYYYMMDD'),
      to_char(d, 'YYYY-MM-DD') || ' 00:00:00+00',
      to_char(d + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
  END LOOP;
END
$$;

INSERT INTO rollup_minute (sn_code, minute, produced, ok, ng, first_pass_ok, gap_produced,
    running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms)
  SELECT sn_code, minute, produced, ok, ng, first_pass_ok, gap_produced,
    running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms
  FROM rollup_minute_unpartitioned;

-- `hour`: the instant the factory's hour begins (its zone's offset may be a half hour). The
-- times fit an integer: an hour holds at most 3,600,000 ms of each.
CREATE TABLE rollup_hour (
  sn_code text NOT NULL REFERENCES devices (sn_code) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  produced bigint NOT NULL DEFAULT 0,
  ok bigint NOT NULL DEFAULT 0,
  ng bigint NOT NULL DEFAULT 0,
  first_pass_ok bigint NOT NULL DEFAULT 0,
  gap_produced bigint NOT NULL DEFAULT 0,
  max_minute_produced bigint NOT NULL DEFAULT 0,
  running_ms integer NOT NULL DEFAULT 0,
  idle_ms integer NOT NULL DEFAULT 0,
  fault_ms integer NOT NULL DEFAULT 0,
  idle_upstream_ms integer NOT NULL DEFAULT 0,
  idle_downstream_ms integer NOT NULL DEFAULT 0,
  PRIMARY KEY (sn_code, hour)
);

INSERT INTO rollup_hour (sn_code, hour, produced, ok, ng, first_pass_ok, gap_produced,
    max_minute_produced, running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms)
  SELECT sn_code, date_trunc('hour', minute, current_setting('linewatch.time_zone')),
    sum(produced), sum(ok), sum(ng), sum(first_pass_ok), sum(gap_produced),
    max(produced - gap_produced), sum(running_ms), sum(idle_ms), sum(fault_ms),
    sum(idle_upstream_ms), sum(idle_downstream_ms)
  FROM rollup_minute_unpartitioned
  GROUP BY 1, 2;

DROP TABLE rollup_minute_unpartitioned;
