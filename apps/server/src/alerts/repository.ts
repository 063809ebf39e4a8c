import { MACHINE_STATE } from '@linewatch/contracts/rules/machine-states';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import {
  ADDED_COLUMNS,
  COVERED_MINUTE_SQL,
  figuresFromRow,
  type Figures,
} from '../foundation/shared/metrics.ts';

export type Rule = 'alarm' | 'realTimeReminder' | 'threeParameters';

const RULE_COLUMN = {
  alarm: 'alarm',
  realTimeReminder: 'real_time_reminder',
  threeParameters: 'three_parameters',
} as const;

interface Subscriber {
  sn: string;
  userId: number;
  timeLength: number;
}

const STOP_KEY_PREFIX = 'realTimeReminder:';
const stopKeyPrefix = sql.lit(STOP_KEY_PREFIX);
const running = sql.lit(MACHINE_STATE.running);
/** A stop's message key: `realTimeReminder:<sn>:<epoch ms of the stop's start>`. */
export const stopKey = (sn: string, since: number) => `${STOP_KEY_PREFIX}${sn}:${since}`;

export interface HourFigures {
  sn: string;
  deviceName: string;
  ppmTarget: number;
  yieldTarget: number;
  useRateTarget: number;
  figures: Figures;
}

/** A subscriber still sees the machine: an admin, or granted its line (access can be withdrawn). */
const visibleToSubscriber = sql<boolean>`(u.is_admin or exists (
  select 1 from user_lines ul where ul.user_id = uf.user_id and ul.line_id = d.line_id))`;

/** A machine's names and targets, as a report shows them. */
export interface ReportedMachine {
  sn: string;
  nickSnCode: string;
  deviceName: string;
  ppmTarget: number;
  yieldTarget: number;
  useRateTarget: number;
}

/** A person's account, as the /set page shows it. */
export interface Account {
  psnCode: string;
  name: string;
  nickName: string;
  mobile: string | null;
}

/** A person's choices on /set: each channel on or off, and their webhook. */
export interface ChannelChoices {
  wechat: boolean;
  dingtalk: boolean;
  webhookUrl: string | null;
}

/** The additive figures summed, with the minutes PPM covers (hour and day rows hold both). */
const sums = () =>
  sql.join(
    [...ADDED_COLUMNS, 'covered_minutes' as const].map(
      (c) => sql`coalesce(sum(${sql.ref(c)}), 0)::float8 as ${sql.ref(c)}`,
    ),
  );
type SumRow = Record<(typeof ADDED_COLUMNS)[number] | 'covered_minutes', number>;

/** The instant a factory day ('YYYY-MM-DD') starts in `timeZone`. */
const startOf = (day: string, timeZone: string) =>
  sql<Date>`(${day}::date::timestamp at time zone ${timeZone})`;

export const createAlertsRepository = (db: Db) => ({
  /** Alarm code → description (migration 004): a small table, read once at start. */
  async alarmDescriptions(): Promise<ReadonlyMap<string, string>> {
    const rows = await db.selectFrom('alarm_definitions').select(['code', 'description']).execute();
    return new Map(rows.map((r) => [r.code, r.description]));
  },

  /** Who follows these machines for this rule and still sees them, read in `executor`. */
  async subscribers(executor: Db, sns: readonly string[], rule: Rule): Promise<Subscriber[]> {
    if (sns.length === 0) return [];
    const rows = await sql<{ sn_code: string; user_id: number; time_length: number }>`
      select uf.sn_code, uf.user_id, uf.time_length from user_follows uf
      join users u on u.id = uf.user_id join devices d on d.sn_code = uf.sn_code
      where uf.sn_code in (${sql.join(sns)}) and ${sql.ref(`uf.${RULE_COLUMN[rule]}`)}
        and ${visibleToSubscriber}
      order by uf.sn_code, uf.user_id`.execute(executor);
    return rows.rows.map((r) => ({ sn: r.sn_code, userId: r.user_id, timeLength: r.time_length }));
  },

  /**
   * For each (machine, moment): the stop (idle or fault) the machine was in at that moment, from
   * its status changes — the first non-running change after the last running one before the
   * moment — with the state it was stopped in (1 idle, 3 fault) at the latest such moment, and
   * each realTimeReminder subscriber whose timeLength that stop had outlasted by then. A moment is
   * a stopped reading, or the running change that ended a stop.
   */
  async overdueStops(
    executor: Db,
    moments: readonly { sn: string; at: number }[],
  ): Promise<{ sn: string; since: number; status: number; userId: number; timeLength: number }[]> {
    if (moments.length === 0) return [];
    const values = moments.map((m) => sql`(${m.sn}, ${new Date(m.at)}::timestamptz)`);
    const rows = await sql<{
      sn_code: string;
      since: Date;
      status: number;
      user_id: number;
      time_length: number;
    }>`
      with p (sn, at) as (values ${sql.join(values)}),
      stop as (
        select p.sn, p.at, (
          select min(sc.ts) from status_changes sc
          where sc.sn_code = p.sn and sc.status <> ${running} and sc.ts <= p.at and sc.ts > coalesce((
            select max(r.ts) from status_changes r
            where r.sn_code = p.sn and r.status = ${running} and r.ts < p.at), '-infinity')
        ) as since, (
          select sc.status from status_changes sc
          where sc.sn_code = p.sn and sc.status <> ${running} and sc.ts <= p.at order by sc.ts desc limit 1
        ) as status
        from p)
      select distinct on (uf.sn_code, stop.since, uf.user_id)
        uf.sn_code, stop.since, stop.status, uf.user_id, uf.time_length
      from stop join user_follows uf on uf.sn_code = stop.sn
      join users u on u.id = uf.user_id join devices d on d.sn_code = uf.sn_code
      where stop.since is not null and uf.real_time_reminder and uf.time_length > 0
        and stop.at - stop.since > uf.time_length * interval '1 millisecond'
        and ${visibleToSubscriber}
        -- Told already (the engine's dedupe key): a long stop costs no write on every flush.
        and not exists (select 1 from notifications n where n.user_id = uf.user_id
          and n.dedupe_key = ${stopKeyPrefix} || stop.sn || ':'
            || (extract(epoch from stop.since) * 1000)::bigint)
      order by uf.sn_code, stop.since, uf.user_id, stop.at desc`.execute(executor);
    return rows.rows.map((r) => ({
      sn: r.sn_code,
      since: new Date(r.since).getTime(),
      status: r.status,
      userId: r.user_id,
      timeLength: r.time_length,
    }));
  },

  /** The window's figures of every machine someone watches the three parameters of. */
  async watchedFigures(from: Date, to: Date): Promise<HourFigures[]> {
    const sums = ADDED_COLUMNS.map((c) => sql`sum(m.${sql.ref(c)})::float8 as ${sql.ref(c)}`);
    const rows = await sql<
      Record<string, number> & {
        sn_code: string;
        device_name: string;
        ppm_target: number;
        yield_target: number;
        use_rate_target: number;
      }
    >`
      select d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target,
        ${sql.join(sums)},
        -- The minutes PPM covers (rules/figures.ts isCoveredMinute): its average's denominator.
        sum((${sql.raw(COVERED_MINUTE_SQL)})::int)::float8 as covered_minutes
      from rollup_minute m join devices d on d.sn_code = m.sn_code
      where m.minute >= ${from} and m.minute < ${to}
        -- The watched SNs as an array: the primary key is searched machine by machine, where
        -- the minute range alone would read today's partition whole, every minute.
        and m.sn_code = any(array(
          select uf.sn_code from user_follows uf where uf.three_parameters))
      group by d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target`.execute(
      db,
    );
    return rows.rows.map((r) => ({
      sn: r.sn_code,
      deviceName: r.device_name,
      ppmTarget: r.ppm_target,
      yieldTarget: r.yield_target,
      useRateTarget: r.use_rate_target,
      figures: figuresFromRow(r as never),
    }));
  },

  /**
   * A machine's most frequent alarms overlapping the factory days from `first` up to `until`
   * (excluded), with their milliseconds inside them (an alarm still active counts up to now).
   */
  async topAlarms(
    sn: string,
    first: string,
    until: string,
    timeZone: string,
    limit: number,
  ): Promise<{ code: string; artificialDes: string | null; times: number; ms: number }[]> {
    const from = startOf(first, timeZone);
    const to = startOf(until, timeZone);
    const rows = await sql<{
      code: string;
      artificial_des: string | null;
      times: number;
      ms: number;
    }>`
      select a.code, m.artificial_des, count(*)::int as times,
        coalesce(sum(extract(epoch from least(coalesce(end_at, now()), ${to})
          - greatest(begin_at, ${from})) * 1000), 0)::float8 as ms
      from alarms a left join alarm_manuals m on m.code = a.code
      where a.sn_code = ${sn} and a.begin_at < ${to}
        and (a.end_at is null or a.end_at > ${from})
      group by a.code, m.artificial_des order by times desc, ms desc, a.code
      limit ${limit}`.execute(db);
    return rows.rows.map((r) => ({
      code: r.code,
      artificialDes: r.artificial_des,
      times: r.times,
      ms: r.ms,
    }));
  },

  /** A machine's totals over the whole days [first, last] (rollup_day). */
  async dayTotals(sn: string, first: string, last: string): Promise<Figures> {
    const row = await sql<SumRow>`select ${sums()} from rollup_day
      where sn_code = ${sn} and day between ${first}::date and ${last}::date`.execute(db);
    return figuresFromRow(row.rows[0]!);
  },

  /** A factory day's figures by hour of the day (rollup_hour, kept for good); `next`: the day after. */
  async hourFigures(
    sn: string,
    day: string,
    next: string,
    timeZone: string,
  ): Promise<{ hour: number; figures: Figures }[]> {
    const rows = await sql<SumRow & { h: number }>`
      select extract(hour from hour at time zone ${timeZone})::int as h, ${sums()}
      from rollup_hour where sn_code = ${sn}
        and hour >= ${startOf(day, timeZone)} and hour < ${startOf(next, timeZone)}
      group by h order by h`.execute(db);
    return rows.rows.map((r) => ({ hour: r.h, figures: figuresFromRow(r) }));
  },

  /** The figures of each day in [first, last] that has a row (rollup_day). */
  async dayFigures(
    sn: string,
    first: string,
    last: string,
  ): Promise<{ day: string; figures: Figures }[]> {
    const rows = await sql<SumRow & { day: string }>`
      select to_char(day, 'YYYY-MM-DD') as day, ${sums()} from rollup_day
      where sn_code = ${sn} and day between ${first}::date and ${last}::date
      group by day order by day`.execute(db);
    return rows.rows.map((r) => ({ day: r.day, figures: figuresFromRow(r) }));
  },

  async reportedMachine(sn: string): Promise<ReportedMachine> {
    const d = await db
      .selectFrom('devices')
      .select([
        'sn_code',
        'nick_sn_code',
        'device_name',
        'ppm_target',
        'yield_target',
        'use_rate_target',
      ])
      .where('sn_code', '=', sn)
      .executeTakeFirstOrThrow();
    return {
      sn: d.sn_code,
      nickSnCode: d.nick_sn_code,
      deviceName: d.device_name,
      ppmTarget: d.ppm_target,
      yieldTarget: d.yield_target,
      useRateTarget: d.use_rate_target,
    };
  },

  /**
   * Each (user, machine) subscribed to this report that the user still sees, with the machine's
   * name and targets; by user, then SN.
   */
  async reportSubscriptions(
    kind: 'daily' | 'week',
  ): Promise<{ userId: number; machine: Omit<ReportedMachine, 'nickSnCode'> }[]> {
    const rows = await sql<{
      user_id: number;
      sn_code: string;
      device_name: string;
      ppm_target: number;
      yield_target: number;
      use_rate_target: number;
    }>`
      select uf.user_id, d.sn_code, d.device_name, d.ppm_target, d.yield_target, d.use_rate_target
      from user_follows uf join users u on u.id = uf.user_id join devices d on d.sn_code = uf.sn_code
      where ${sql.ref(`uf.${kind}`)} and ${visibleToSubscriber}
      order by uf.user_id, d.sn_code`.execute(db);
    return rows.rows.map((r) => ({
      userId: r.user_id,
      machine: {
        sn: r.sn_code,
        deviceName: r.device_name,
        ppmTarget: r.ppm_target,
        yieldTarget: r.yield_target,
        useRateTarget: r.use_rate_target,
      },
    }));
  },

  /**
   * Opens the machine's episode of `rule` at `at`, in `executor`; false when one is open already
   * (its subscribers were told when it opened).
   */
  async openEpisode(executor: Db, sn: string, rule: Rule, at: Date): Promise<boolean> {
    const opened = await executor
      .insertInto('alert_episodes')
      .values({ sn_code: sn, rule, started_at: at })
      .onConflict((oc) => oc.columns(['sn_code', 'rule']).doNothing())
      .returning('started_at')
      .executeTakeFirst();
    return opened !== undefined;
  },

  async closeEpisode(executor: Db, sn: string, rule: Rule) {
    await executor
      .deleteFrom('alert_episodes')
      .where('sn_code', '=', sn)
      .where('rule', '=', rule)
      .execute();
  },

  async account(userId: number): Promise<Account> {
    const u = await db
      .selectFrom('users')
      .select(['psn_code', 'name', 'nick_name', 'mobile'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { psnCode: u.psn_code, name: u.name, nickName: u.nick_name, mobile: u.mobile };
  },

  async saveChannelChoices(userId: number, choices: ChannelChoices) {
    const values = {
      wechat: choices.wechat,
      dingtalk: choices.dingtalk,
      webhook_url: choices.webhookUrl,
    };
    await db
      .insertInto('notification_settings')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  },
});

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
