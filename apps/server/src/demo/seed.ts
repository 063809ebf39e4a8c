import { seedFaca } from './seed/faca.ts';
import { defaultPlcPort, plcProfiles } from '@linewatch/contracts/plc-profiles';
import { MACHINE_STATE, type MachineState } from '@linewatch/contracts/rules/machine-states';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../foundation/config/config.ts';
import type { Db } from '../foundation/db/database.ts';
import type { Database } from '../foundation/db/schema.ts';
import { hashSecret } from '../foundation/shared/secrets.ts';
import { createMinutePartitions } from '../foundation/db/minute-partitions.ts';
import { dayOf, hourStartOf, startOfDay } from '../foundation/shared/time.ts';
import { seedCaseVideos } from './seed/cases.ts';
import { seedOperationLogs } from './seed/history.ts';

export const demoSignIns = [
  { label: '管理员 (sees every line)', psnCode: 'admin', password: 'Admin@2026' },
  { label: '操作员 (sees SMT一线 and 组装一线)', psnCode: 'operator', password: 'Operator@2026' },
] as const;

interface LineSpec {
  name: string;
  code: string;
  province: string;
  city: string;
  lng: number;
  lat: number;
  groups: { name: string; machine: string; ppm: number }[];
}

const LINES: LineSpec[] = [
  {
    name: 'SMT一线',
    code: 'S1',
    province: '广东省',
    city: '深圳市',
    lng: 114.06,
    lat: 22.54,
    groups: [
      { name: '贴片', machine: '高速贴片机', ppm: 80 },
      { name: '回流焊', machine: '回流焊炉', ppm: 70 },
      { name: 'AOI检测', machine: 'AOI检测仪', ppm: 75 },
    ],
  },
  {
    name: 'SMT二线',
    code: 'S2',
    province: '广东省',
    city: '东莞市',
    lng: 113.75,
    lat: 23.02,
    groups: [
      { name: '贴片', machine: '高速贴片机', ppm: 80 },
      { name: '回流焊', machine: '回流焊炉', ppm: 70 },
      { name: 'AOI检测', machine: 'AOI检测仪', ppm: 75 },
    ],
  },
  {
    name: '组装一线',
    code: 'A1',
    province: '江苏省',
    city: '苏州市',
    lng: 120.58,
    lat: 31.3,
    groups: [
      { name: '锁附', machine: '自动锁螺丝机', ppm: 40 },
      { name: '点胶', machine: '点胶机', ppm: 45 },
      { name: '功能测试', machine: '功能测试机', ppm: 30 },
    ],
  },
  {
    name: '组装二线',
    code: 'A2',
    province: '浙江省',
    city: '杭州市',
    lng: 120.16,
    lat: 30.27,
    groups: [
      { name: '锁附', machine: '自动锁螺丝机', ppm: 40 },
      { name: '点胶', machine: '点胶机', ppm: 45 },
      { name: '功能测试', machine: '功能测试机', ppm: 30 },
    ],
  },
  {
    name: '包装线',
    code: 'P1',
    province: '四川省',
    city: '成都市',
    lng: 104.07,
    lat: 30.57,
    groups: [
      { name: '称重', machine: '自动称重机', ppm: 50 },
      { name: '封箱', machine: '封箱机', ppm: 35 },
    ],
  },
];
/** SMT一线 has more machines than a page of the list (15) holds. */
const MACHINES_PER_LINE: Record<string, number> = { S1: 18 };
const DEFAULT_MACHINES_PER_LINE = 12;
const MACHINES_PER_GATEWAY = 10;
const HISTORY_DAYS = 90;
const { idle: IDLE, running: RUNNING, fault: FAULT } = MACHINE_STATE;
/** The simulated PLC's alarm codes (apps/gateway/src/drivers/simulated.ts). */
const ALARM_CODES = ['E101', 'E205', 'E307', 'E412', 'E518'];
/** The demo's PLCs are Mitsubishi FX5Us (their profile maps all the simulator's alarm codes)… */
const DEMO_PLC_MODEL = 'FX5U';
/** …but for one read over OPC UA and one Siemens read over S7comm (the first two published). */
const DEMO_OTHER_MODELS = ['OPCUA-LW', 'S7-1200-S7'];
const plcModelOf = (sn: string) => {
  const published = demoMachines().filter((m) => m.simulated && m.gatewayId && !m.maintenance);
  const at = published.findIndex((m) => m.sn === sn);
  return DEMO_OTHER_MODELS[at] ?? DEMO_PLC_MODEL;
};
const OPERATOR_LINES = ['SMT一线', '组装一线'];

/**
 * Machines that show the states a screen can be in, beyond running/idle/fault:
 * - NO_GATEWAY: not connected to any gateway yet (iot 0, offline, no history);
 * - OFFLINE_GATEWAY: behind a gateway that is registered but never comes online (iot 2);
 * - UNPUBLISHED: bound to a running gateway that does not publish it (PLC unplugged: offline);
 * - FAULTY: a PLC that is in fault most of the time, with the simulator's alarm codes;
 * - MAINTENANCE: a reflow oven waiting for maintenance: in fault with E518 温度过高 since two
 *   hours before the demo was seeded and for six hours after, then an hour of running between
 *   six-hour faults (the browser journeys open it: a machine known to be in fault).
 */
const NO_GATEWAY = new Set(['LW-P1-012']);
const OFFLINE_GATEWAY = new Set(['LW-A2-011', 'LW-A2-012']);
const OFFLINE_GATEWAY_ID = 'LWGW00000099';
const UNPUBLISHED = new Set(['LW-S2-012']);
const FAULTY = new Map([['LW-S1-002', 0.6]]);
const MAINTENANCE = new Map([
  ['LW-S1-005', { alarm: 'E518', faultMinutes: 360, runMinutes: 60, backfillMinutes: 120 }],
]);
/**
 * 我的关注: what each demo user follows. The operator has alarm messages on for the reflow oven
 * waiting for maintenance: after a fresh start its first reading raises E518, so the inbox holds
 * an alarm message linking to the E518 troubleshooting case (the alerts journey opens it).
 */
const FOLLOWS: Record<string, { sn: string; alarm?: boolean }[]> = {
  operator: [
    { sn: 'LW-S1-001' },
    { sn: 'LW-S1-002' },
    { sn: 'LW-A1-003' },
    { sn: 'LW-S1-005', alarm: true },
  ],
  admin: [{ sn: 'LW-S1-002' }, { sn: 'LW-A2-011' }, { sn: 'LW-P1-012' }],
};

/** Deterministic per-machine randomness, so every demo factory looks the same. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

const gatewayIdOf = (index: number) => `LWGW${String(index + 1).padStart(8, '0')}`;
/** Demo gateway secrets derive from SECRET, so nothing secret is written to the database. */
const gatewaySecret = (config: Config, gatewayId: string) =>
  createHmac('sha256', config.SECRET)
    .update(`gateway:${gatewayId}`)
    .digest('base64url')
    .slice(0, 32);

interface DemoMachine {
  sn: string;
  name: string;
  line: LineSpec;
  group: LineSpec['groups'][number];
  /** null: not connected to a gateway. */
  gatewayId: string | null;
  /** Whether the demo gateways run its simulated PLC. */
  simulated: boolean;
  /** The simulated PLC's faults per running minute, where not the default. */
  faultRate?: number;
  maintenance?: {
    alarm: string;
    faultMinutes: number;
    runMinutes: number;
    backfillMinutes: number;
  };
  seed: number;
}

const demoMachines = (): DemoMachine[] => {
  const machines: DemoMachine[] = [];
  let connected = 0;
  LINES.forEach((line) => {
    const count = MACHINES_PER_LINE[line.code] ?? DEFAULT_MACHINES_PER_LINE;
    for (let i = 0; i < count; i++) {
      const group = line.groups[i % line.groups.length]!;
      const sn = `LW-${line.code}-${String(i + 1).padStart(3, '0')}`;
      const gatewayId = NO_GATEWAY.has(sn)
        ? null
        : OFFLINE_GATEWAY.has(sn)
          ? OFFLINE_GATEWAY_ID
          : gatewayIdOf(Math.floor(connected++ / MACHINES_PER_GATEWAY));
      const faultRate = FAULTY.get(sn);
      const maintenance = MAINTENANCE.get(sn);
      machines.push({
        sn,
        name: `${group.machine}${String(Math.floor(i / line.groups.length) + 1).padStart(2, '0')}`,
        line,
        group,
        gatewayId,
        simulated: gatewayId !== null && gatewayId !== OFFLINE_GATEWAY_ID && !UNPUBLISHED.has(sn),
        ...(faultRate !== undefined && { faultRate }),
        ...(maintenance && { maintenance }),
        seed: machines.length + 1,
      });
    }
  });
  return machines;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The 90 days before yesterday as a site keeps them once their minutes are past the retention:
 * hours (plausible figures around each day's utilisation, every hour's time whole) and the day
 * totals summed from them. Made in SQL: 142,560 rows built in JavaScript and sent over took
 * twice as long, on every first start. random() after setseed(): the same factory every time.
 */
const seedPastHours = async (
  tx: Transaction<Database>,
  machines: DemoMachine[],
  windowStart: number,
  timeZone: string,
) => {
  const start = new Date(windowStart);
  await sql`SELECT setseed(0.2026)`.execute(tx);
  await sql`
    INSERT INTO rollup_hour (sn_code, hour, produced, ok, ng, first_pass_ok, max_minute_produced,
      covered_minutes, running_ms, idle_ms, fault_ms, idle_upstream_ms, idle_downstream_ms)
    SELECT day.sn, t.hour, f.produced, f.produced - q.ng, q.ng,
      round((f.produced - q.ng) * (0.95 + random() * 0.04)),
      CASE WHEN t.running > 0 THEN round(day.ppm * (1.1 + random() * 0.15)) ELSE 0 END,
      ceil(t.running / 60000.0),
      t.running, 3600000 - t.running - f.fault, f.fault,
      round((3600000 - t.running - f.fault) * 0.5), round((3600000 - t.running - f.fault) * 0.3)
    FROM (
      SELECT m.sn, m.ppm, d, 0.7 + 0.22 * random() AS use_rate, 0.02 + 0.06 * random() AS fault_share
      FROM unnest(${machines.map((m) => m.sn)}::text[], ${machines.map((m) => m.group.ppm)}::float8[])
        AS m(sn, ppm)
      CROSS JOIN generate_series(1, ${HISTORY_DAYS}) AS d
    ) AS day
    CROSS JOIN generate_series(0, 23) AS h
    CROSS JOIN LATERAL (
      SELECT ${start}::timestamptz - day.d * interval '1 day' + h * interval '1 hour' AS hour,
        round(3600000 * least(1, greatest(0, day.use_rate + (random() - 0.5) * 0.3)))::int AS running
    ) AS t
    CROSS JOIN LATERAL (
      SELECT least(3600000 - t.running, round(3600000 * day.fault_share * 2 * random()))::int AS fault,
        round(t.running / 60000.0 * day.ppm * (0.9 + random() * 0.15))::bigint AS produced
    ) AS f
    CROSS JOIN LATERAL (
      SELECT round(f.produced * (0.005 + random() * 0.025))::bigint AS ng
    ) AS q`.execute(tx);
  await sql`
    INSERT INTO rollup_day (sn_code, day, produced, ok, ng, first_pass_ok, gap_produced,
      max_minute_produced, covered_minutes, running_ms, idle_ms, fault_ms, idle_upstream_ms,
      idle_downstream_ms)
    SELECT sn_code, (hour AT TIME ZONE ${timeZone})::date, sum(produced), sum(ok), sum(ng),
      sum(first_pass_ok), sum(gap_produced), max(max_minute_produced), sum(covered_minutes),
      sum(running_ms),
      sum(idle_ms), sum(fault_ms), sum(idle_upstream_ms), sum(idle_downstream_ms)
    FROM rollup_hour WHERE hour < ${start}
    GROUP BY 1, 2`.execute(tx);
};

/**
 * Yesterday and today so far minute by minute (with their hours and day totals), alarms and
 * status changes, and the alarms of the days before. The day view opens on yesterday: it is
 * whole, its hours and its total the same minutes.
 */
/** How long before the seed the demo's machines that no simulator runs last reported. */
const SILENT_MINUTES = 10;

const backfill = async (
  tx: Transaction<Database>,
  machines: DemoMachine[],
  windowStart: number,
  timeZone: string,
  now: number,
) => {
  const minuteRows: Database['rollup_minute'][] extends never ? never : Record<string, unknown>[] =
    [];
  const hourRows = new Map<string, Record<string, number | string | Date>>();
  const dayRows = new Map<string, Record<string, number | string | Date>>();
  const alarms: { sn_code: string; code: string; begin_at: Date; end_at: Date }[] = [];
  const statusChanges: { sn_code: string; ts: Date; status: number; idle_reason: string | null }[] =
    [];
  const add = (
    rows: typeof hourRows,
    sn: string,
    period: { hour: Date } | { day: string },
    f: Record<string, number>,
  ) => {
    const id = `${sn}|${'hour' in period ? period.hour.getTime() : period.day}`;
    const row = rows.get(id) ?? {
      sn_code: sn,
      ...period,
      produced: 0,
      ok: 0,
      ng: 0,
      first_pass_ok: 0,
      running_ms: 0,
      idle_ms: 0,
      fault_ms: 0,
      idle_upstream_ms: 0,
      idle_downstream_ms: 0,
      gap_produced: 0,
      max_minute_produced: 0,
      covered_minutes: 0,
    };
    for (const [k, v] of Object.entries(f))
      row[k] = k === 'max_minute_produced' ? Math.max(Number(row[k]), v) : Number(row[k]) + v;
    rows.set(id, row);
  };
  /** One minute's or one hour's figures, into its factory hour and day. */
  const addFigures = (sn: string, at: number, f: Record<string, number>) => {
    add(hourRows, sn, { hour: new Date(hourStartOf(at, timeZone)) }, f);
    add(dayRows, sn, { day: dayOf(at, timeZone) }, f);
  };

  const insertChunks = async <T extends keyof Database>(
    table: T,
    rows: Record<string, unknown>[],
  ) => {
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insertInto(table)
        .values(rows.slice(i, i + 1000) as never)
        .execute();
    }
  };
  const flush = async () => {
    await insertChunks('rollup_minute', minuteRows.splice(0));
    await insertChunks('rollup_hour', [...hourRows.values()]);
    hourRows.clear();
    await insertChunks('rollup_day', [...dayRows.values()]);
    dayRows.clear();
    await insertChunks('alarms', alarms.splice(0));
    await insertChunks('status_changes', statusChanges.splice(0));
  };

  for (const m of machines) {
    const random = prng(m.seed * 7919);
    const ppm = m.group.ppm;
    // Days before the minute window (their hours and totals: seedPastHours): a few alarms.
    for (let d = HISTORY_DAYS; d >= 1; d--) {
      const dayStart = windowStart - d * DAY;
      const alarmCount = 1 + Math.floor(random() * 4);
      for (let a = 0; a < alarmCount; a++) {
        const begin = dayStart + Math.floor(random() * (DAY - 3_600_000));
        alarms.push({
          sn_code: m.sn,
          code: ALARM_CODES[Math.floor(random() * ALARM_CODES.length)]!,
          begin_at: new Date(begin),
          end_at: new Date(begin + (2 + Math.floor(random() * 40)) * MINUTE),
        });
      }
    }
    // Yesterday and today so far minute by minute, from a small status chain.
    let status: MachineState = RUNNING;
    const counters = { produced: 0, ok: 0, ng: 0, first_pass_ok: 0 };
    let alarmCode = '';
    let alarmBegin = 0;
    const faultFrom = m.maintenance
      ? now - (now % MINUTE) - m.maintenance.backfillMinutes * MINUTE
      : Infinity;
    // A machine no simulator runs fell silent 10 minutes ago: it reads as off line at once,
    // however soon after the seed it is opened.
    const lastMinuteEnd = now - (now % MINUTE) - (m.simulated ? 0 : SILENT_MINUTES * MINUTE);
    for (let t = windowStart; t < lastMinuteEnd; t += MINUTE) {
      const roll = random();
      // The machine waiting for maintenance breaks down at faultFrom (even out of another fault).
      const breaksDown = t === faultFrom;
      const next: MachineState =
        t >= faultFrom
          ? FAULT
          : status !== RUNNING
            ? roll < 0.2
              ? RUNNING
              : status
            : roll < 0.015
              ? FAULT
              : roll < 0.04
                ? IDLE
                : RUNNING;
      if (next !== status || breaksDown) {
        if (status === FAULT)
          alarms.push({
            sn_code: m.sn,
            code: alarmCode,
            begin_at: new Date(alarmBegin),
            end_at: new Date(t),
          });
        statusChanges.push({
          sn_code: m.sn,
          ts: new Date(t),
          status: next,
          idle_reason: next === IDLE ? (random() < 0.5 ? 'upstream' : 'downstream') : null,
        });
        if (next === FAULT) {
          alarmCode =
            breaksDown && m.maintenance
              ? m.maintenance.alarm
              : ALARM_CODES[Math.floor(random() * ALARM_CODES.length)]!;
          alarmBegin = t;
        }
        status = next;
      }
      const produced =
        status === RUNNING ? Math.max(0, Math.round(ppm * (0.85 + random() * 0.3))) : 0;
      const ng = produced > 0 && random() < 0.6 ? Math.round(produced * random() * 0.04) : 0;
      const f = {
        produced,
        ok: produced - ng,
        ng,
        first_pass_ok: Math.round((produced - ng) * 0.97),
        running_ms: status === RUNNING ? MINUTE : 0,
        idle_ms: status === IDLE ? MINUTE : 0,
        fault_ms: status === FAULT ? MINUTE : 0,
        idle_upstream_ms: 0,
        idle_downstream_ms: 0,
      };
      minuteRows.push({ sn_code: m.sn, minute: new Date(t), ...f });
      for (const k of Object.keys(counters) as (keyof typeof counters)[]) counters[k] += f[k];
      addFigures(m.sn, t, {
        ...f,
        max_minute_produced: produced,
        covered_minutes: status === RUNNING || produced > 0 ? 1 : 0,
      });
    }
    if (status === FAULT)
      alarms.push({
        sn_code: m.sn,
        code: alarmCode,
        begin_at: new Date(alarmBegin),
        end_at: new Date(now - (now % MINUTE)),
      });
    // A machine no simulator runs (behind the offline gateway, or unplugged) reported these
    // minutes and then fell silent: its last reading is the last minute's, so the real-time page
    // says when it last reported. A simulated one's comes from its PLC (a seeded one would make
    // the simulator's first reading a counter jump).
    if (!m.simulated)
      await tx
        .insertInto('device_live')
        .values({
          sn_code: m.sn,
          ts: new Date(lastMinuteEnd),
          status,
          idle_reason: null,
          ...counters,
          active_alarms: status === FAULT ? [alarmCode] : [],
        })
        .execute();
    // Written machine by machine: holding all 66 machines' rows took ~100 MB of heap.
    await flush();
  }
};

/** Seeds the demo factory once; a restart finds it and changes nothing. */
export const seedDemo = async (
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  now = Date.now(),
) => {
  const seeded = await db
    .selectFrom('users')
    .select('id')
    .where('psn_code', '=', 'admin')
    .executeTakeFirst();
  if (seeded) return;
  const started = Date.now();
  const machines = demoMachines();
  const [adminHash, operatorHash] = await Promise.all(
    demoSignIns.map((s) => hashSecret(s.password)),
  );
  const gatewayIds = [
    ...new Set(machines.flatMap((m) => (m.gatewayId === null ? [] : [m.gatewayId]))),
  ];
  const gatewayHashes = await Promise.all(
    gatewayIds.map((id) => hashSecret(gatewaySecret(config, id))),
  );

  // The minutes go straight into their day partitions, not through the default.
  await createMinutePartitions(db).ensure(startOfDay(now - DAY, config.TIMEZONE), now);
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('users')
      .values([
        {
          psn_code: 'admin',
          name: '管理员',
          nick_name: '王厂长',
          password_hash: adminHash!,
          is_admin: true,
        },
        {
          psn_code: 'operator',
          name: '操作员',
          nick_name: '李班长',
          password_hash: operatorHash!,
          is_admin: false,
        },
      ])
      .execute();
    const lineIds = new Map<string, number>();
    const groupIds = new Map<string, number>();
    for (const [index, line] of LINES.entries()) {
      const { id } = await tx
        .insertInto('production_lines')
        .values({ name: line.name, sort: index })
        .returning('id')
        .executeTakeFirstOrThrow();
      lineIds.set(line.name, id);
      for (const group of line.groups) {
        const g = await tx
          .insertInto('product_groups')
          .values({ line_id: id, name: group.name })
          .returning('id')
          .executeTakeFirstOrThrow();
        groupIds.set(`${line.name}|${group.name}`, g.id);
      }
    }
    const operator = await tx
      .selectFrom('users')
      .select('id')
      .where('psn_code', '=', 'operator')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('user_lines')
      .values(OPERATOR_LINES.map((name) => ({ user_id: operator.id, line_id: lineIds.get(name)! })))
      .execute();
    await tx
      .insertInto('gateways')
      .values(
        gatewayIds.map((id, i) => ({
          id,
          name: id === OFFLINE_GATEWAY_ID ? '演示网关(离线)' : `演示网关${Number(id.slice(4))}`,
          password_hash: gatewayHashes[i]!,
        })),
      )
      .execute();
    await tx
      .insertInto('devices')
      .values(
        machines.map((m) => {
          const random = prng(m.seed);
          return {
            sn_code: m.sn,
            device_name: m.name,
            nick_sn_code: m.seed % 7 === 0 ? `${m.line.name}-${m.name}` : '',
            machine_name: m.group.machine,
            project_name: m.line.name,
            line_id: lineIds.get(m.line.name)!,
            group_id: groupIds.get(`${m.line.name}|${m.group.name}`)!,
            ppm_target: m.group.ppm,
            yield_target: 97,
            superiority_rate_target: 94,
            use_rate_target: 80,
            produce_target_number: m.group.ppm * 60 * 20,
            ng_target_number: Math.round(m.group.ppm * 60 * 20 * 0.02),
            capacity_target: m.group.ppm * 60 * 22,
            province: m.line.province,
            city: m.line.city,
            lng: m.line.lng + (random() - 0.5) * 0.1,
            lat: m.line.lat + (random() - 0.5) * 0.1,
            gateway_id: m.gatewayId,
            plc_ip: `192.168.${10 + Math.floor(m.seed / 50)}.${(m.seed % 200) + 20}`,
            plc_port: defaultPlcPort(plcModelOf(m.sn)),
            plc_unit_id: plcProfiles[plcModelOf(m.sn)]!.protocol === 'modbus' ? 1 : 0,
            plc_model: plcModelOf(m.sn),
          };
        }),
      )
      .execute();
    const users = await tx.selectFrom('users').select(['id', 'psn_code']).execute();
    await tx
      .insertInto('user_follows')
      .values(
        users.flatMap((u) =>
          (FOLLOWS[u.psn_code] ?? []).map((f) => ({
            user_id: u.id,
            sn_code: f.sn,
            alarm: f.alarm ?? false,
          })),
        ),
      )
      .execute();
    // A machine never connected to a gateway has no history.
    const withHistory = machines.filter((m) => m.gatewayId !== null);
    const windowStart = startOfDay(now - DAY, config.TIMEZONE);
    await seedPastHours(tx, withHistory, windowStart, config.TIMEZONE);
    await backfill(tx, withHistory, windowStart, config.TIMEZONE, now);
    await seedOperationLogs(
      tx,
      machines.filter((m) => m.gatewayId !== null).map((m) => m.sn),
      now,
      config.TIMEZONE,
    );
    await seedFaca(tx, config.TIMEZONE, now);
    await seedCaseVideos(tx);
  });
  log.info({ machines: machines.length, ms: Date.now() - started }, 'demo factory seeded');
};

/** The demo's gateway agent config and its simulated PLCs (apps/gateway plc-sim `--plcs`). */
export interface DemoGatewayFiles {
  gateways: string;
  plcs: string;
}

/**
 * The demo gateways poll their machines through real Modbus TCP reads: every published machine is
 * a simulated PLC of the plc-sim process on 127.0.0.1 at its own port (`ports[i]` for the i-th),
 * and the last port is a spare PLC at the agents' default Modbus port, its machine (LW-P1-012)
 * waiting to be bound from the phone with PLC IP 127.0.0.1.
 */
export const writeDemoGatewayConfig = (
  config: Config,
  brokerUrl: string,
  ports: readonly number[],
): DemoGatewayFiles => {
  const dir = resolve(config.DATA_DIR, 'demo');
  mkdirSync(dir, { recursive: true });
  // The offline gateway is not run, and an unpublished machine is left out of its gateway.
  const published = demoMachines().filter((m) => m.simulated && m.gatewayId);
  const spare = demoMachines().find((m) => m.gatewayId === null)!;
  if (ports.length !== published.length + 1)
    throw new Error(`demo: ${published.length + 1} PLC ports needed, ${ports.length} given`);
  const portOf = new Map(published.map((m, i) => [m.sn, ports[i]!]));
  const sparePort = ports.at(-1)!;
  const byGateway = new Map<string, DemoMachine[]>();
  for (const m of published)
    byGateway.set(m.gatewayId!, [...(byGateway.get(m.gatewayId!) ?? []), m]);
  const files = { gateways: join(dir, 'gateways.json'), plcs: join(dir, 'plcs.json') };
  const write = (file: string, content: unknown) =>
    writeFileSync(file, JSON.stringify(content, null, 2), { mode: 0o600 });
  write(files.plcs, [
    ...[...published, spare].map((m) => ({
      port: portOf.get(m.sn) ?? sparePort,
      model: plcModelOf(m.sn),
      sn: m.sn,
      seed: m.seed,
      ppmTarget: m.group.ppm,
      ...(m.faultRate !== undefined && { faultRate: m.faultRate }),
      ...(m.maintenance && {
        maintenance: {
          alarm: m.maintenance.alarm,
          faultMinutes: m.maintenance.faultMinutes,
          runMinutes: m.maintenance.runMinutes,
        },
      }),
    })),
  ]);
  write(files.gateways, {
    brokerUrl,
    modbusPort: sparePort,
    // Loopback PLCs: a restarted plc-sim is read again within a second.
    modbusReconnectMs: 1000,
    opcuaReconnectMs: 1000,
    s7ReconnectMs: 1000,
    gateways: [...byGateway].map(([id, machines]) => ({
      id,
      password: gatewaySecret(config, id),
      bufferDir: join(dir, 'buffers', id),
      machines: machines.map((m) => ({
        driver: plcProfiles[plcModelOf(m.sn)]!.protocol,
        sn: m.sn,
        plcIp: '127.0.0.1',
        port: portOf.get(m.sn)!,
        plcModel: plcModelOf(m.sn),
      })),
    })),
  });
  return files;
};

/** How many PLC ports `writeDemoGatewayConfig` needs. */
export const demoPlcCount = () =>
  demoMachines().filter((m) => m.simulated && m.gatewayId).length + 1;
