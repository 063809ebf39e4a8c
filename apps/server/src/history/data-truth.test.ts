import { targetLabels, type MachineListReply } from '@linewatch/contracts/devices';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import type { RealtimePayload } from '@linewatch/contracts/socket';
import { sockets } from '@linewatch/contracts/telemetry-api';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type {
  DetailRow,
  HistoryDetailReply,
  HistoryDtReply,
  HistoryReply,
  OperationLogReply,
  StopAlarmReply,
} from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import type { ReportReply } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import type { StatisticsReply } from '@linewatch/contracts/statistics';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import type { Reading } from '@linewatch/contracts/mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../test/factories.ts';
import { connectGateway, type GatewayClient } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { openSocket } from '../test/socket.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import {
  averagePpmOf,
  MINUTE,
  minutesOf,
  sumMinutes,
  zero,
  type Fig,
  type Step,
} from '../test/truth.ts';

/*
 * Data truth (issue 8): a scripted telemetry sequence over several factory days goes through a
 * gateway, the broker and ingest; every figure the history, DT, TOP5, log, list and statistics
 * endpoints and the real-time socket return is checked against figures this file computes from the
 * script alone, by the rules of docs/design.md section 5 (time to the previous status, split by minute;
 * no time across a silence over 5 minutes, whose parts are in the totals but in no minute; a drop
 * to near zero is a PLC reboot; a rise or drop beyond what the machine can make counts nothing and
 * re-bases).
 */

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The factory's zone for this test: Asia/Shanghai, UTC+8 all year. */
const OFFSET = 8 * HOUR;
const PPM_TARGET = 60;
const TARGETS = { ppm: PPM_TARGET, yield: 95, superiority: 90, useRate: 80 };

const localDay = (ts: number) => new Date(ts + OFFSET).toISOString().slice(0, 10);
const localHour = (ts: number) => `${new Date(ts + OFFSET).toISOString().slice(11, 13)}:00`;
const mondayOf = (day: string) => {
  const t = Date.parse(`${day}T00:00:00Z`);
  return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
};
const at = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00+08:00`);

// ---------------------------------------------------------------------------------------------
// The script

const today = localDay(Date.now());
const dayBefore = (n: number) => localDay(Date.parse(`${today}T12:00:00+08:00`) - n * DAY);
const D1 = dayBefore(3);
const D2 = dayBefore(2);
const D3 = dayBefore(1);

const script: Step[] = [];
const counters = { produced: 5_000, ok: 4_800, ng: 200, firstPassOk: 4_700 };
const segment = (
  from: number,
  to: number,
  status: Step['status'],
  options: { idleReason?: Step['idleReason']; alarms?: string[]; every?: number } = {},
) => {
  for (let ts = from; ts < to; ts += options.every ?? 20_000) {
    if (status === 2 && script.length > 0) {
      // 20 parts in 20 s: 1 NG, 1 reworked (OK, but not at the first pass).
      counters.produced += 20;
      counters.ok += 19;
      counters.ng += 1;
      counters.firstPassOk += 18;
    }
    script.push({
      ts,
      status,
      ...(options.idleReason ? { idleReason: options.idleReason } : {}),
      counters: { ...counters },
      alarms: options.alarms ?? [],
    });
  }
};
const jump = (ts: number, status: Step['status'], set: Partial<typeof counters>) => {
  Object.assign(counters, set);
  script.push({ ts, status, counters: { ...counters }, alarms: [] });
};

// Day 1: steady running, idle for upstream then downstream, a fault with E205, a PLC reboot, an
// implausible jump (re-baseline), a silence of 20 minutes, more running.
segment(at(D1, '08:00'), at(D1, '09:00'), 2);
segment(at(D1, '09:00'), at(D1, '09:20'), 1, { idleReason: 'upstream' });
segment(at(D1, '09:20'), at(D1, '09:40'), 1, { idleReason: 'downstream' });
segment(at(D1, '09:40'), at(D1, '10:00'), 3, { alarms: ['E205'] });
segment(at(D1, '10:00'), at(D1, '10:30'), 2);
jump(at(D1, '10:30'), 2, { produced: 7, ok: 6, ng: 1, firstPassOk: 5 });
segment(at(D1, '10:30') + 20_000, at(D1, '11:00'), 2);
jump(at(D1, '11:00'), 2, { produced: counters.produced + 100_000 });
segment(at(D1, '11:00') + 20_000, at(D1, '11:30'), 2);
segment(at(D1, '11:50'), at(D1, '12:00'), 2);
segment(at(D1, '12:00'), at(D1, '12:01'), 1, { idleReason: 'upstream' });
const day1End = script.length;
// Day 2 (sent later, as a gateway's replayed buffer): running, E101 twice, E518 left open.
segment(at(D2, '08:00'), at(D2, '08:30'), 2);
segment(at(D2, '08:30'), at(D2, '08:35'), 3, { alarms: ['E101'] });
segment(at(D2, '08:35'), at(D2, '08:45'), 2);
segment(at(D2, '08:45'), at(D2, '08:47'), 3, { alarms: ['E101'] });
segment(at(D2, '08:47'), at(D2, '09:00'), 2);
segment(at(D2, '09:00'), at(D2, '09:10'), 3, { alarms: ['E518'] });
// Day 3 (yesterday): nothing at all.

const operations = [
  { ts: at(D2, '08:40'), comment: '调整节拍', setValue: 'ppm 60→65', user: '张三' },
  { ts: at(D2, '08:50'), comment: '', setValue: '温度 180', user: '李四' },
];

// ---------------------------------------------------------------------------------------------
// What the script means, computed here without the server (test/truth.ts)

const { minutes, rebaselines } = minutesOf(script, PPM_TARGET);
const sum = (keyOf: (minute: number) => string | null, of = minutes) => sumMinutes(of, keyOf);
const ratio = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null);
type Summed = Fig & { maxMinute: number; covered: number };
const expectRow = (row: DetailRow, f: Summed | undefined) => {
  expect(row.hasData, row.dataDate).toBe(f !== undefined);
  const e = f ?? { ...zero(), maxMinute: 0, covered: 0 };
  expect(row.produceNumber, row.dataDate).toBe(e.produced);
  expect(row.okNum, row.dataDate).toBe(e.ok);
  expect(row.ngNumber, row.dataDate).toBe(e.ng);
  expect(row.maxPPM, row.dataDate).toBe(e.maxMinute);
  const close = (actual: number | null, expected: number | null) => {
    if (expected === null) expect(actual, row.dataDate).toBeNull();
    else expect(actual, row.dataDate).toBeCloseTo(expected, 1);
  };
  // One average PPM: the parts of the minutes max PPM is the best of, per minute; never above it.
  close(row.ppm, averagePpmOf(e));
  expect(row.averagePPM, row.dataDate).toBe(row.ppm);
  if (row.ppm !== null) expect(row.ppm, row.dataDate).toBeLessThanOrEqual(row.maxPPM);
  close(row.yieId, ratio(e.ok, e.ok + e.ng));
  close(row.excellentRate, ratio(e.firstPassOk, e.produced));
  close(row.useRate, ratio(e.running, e.running + e.idle + e.fault));
  expect(row.ppmTarget).toBe(TARGETS.ppm);
  expect(row.yieIdTarget).toBe(TARGETS.yield);
  expect(row.excellentRateTarget).toBe(TARGETS.superiority);
  expect(row.useRateTarget).toBe(TARGETS.useRate);
};
const dtMinutes = (f: Fig | undefined) => Math.round(((f?.fault ?? 0) / MINUTE) * 100) / 100;

// ---------------------------------------------------------------------------------------------

let server: TestServer;
let keyId: string;
let sn: string;
let lineName: string;
let make: ReturnType<typeof factories>;
let line: Awaited<ReturnType<ReturnType<typeof factories>['createLine']>>;
let gatewayCredentials: { id: string; secret: string };
/** The last seq the gateway sent: a later message carries the next one. */
let seqSent = 0;

/** A step of the script as the gateway reads it from the PLC. */
const reading = (s: Step): Reading => ({
  sn,
  ts: s.ts,
  status: s.status,
  ...(s.idleReason ? { idleReason: s.idleReason } : {}),
  counters: s.counters,
  alarms: s.alarms.map((code) => ({ code, active: true })),
});

const publishAll = async (gateway: { id: string; secret: string }) => {
  // Readings travel as a gateway batches them; events on their own topic, one seq for both.
  const messages: { kind: 'telemetry' | 'events'; body: unknown }[] = [];
  const batch = (steps: Step[]) => {
    for (let i = 0; i < steps.length; i += 100)
      messages.push({
        kind: 'telemetry',
        body: { readings: steps.slice(i, i + 100).map(reading) },
      });
  };
  batch(script.slice(0, day1End));
  const replayFrom = messages.length;
  batch(script.slice(day1End));
  messages.push({
    kind: 'events',
    body: { events: operations.map((o) => ({ type: 'operation', sn, ...o })) },
  });
  const send = (client: GatewayClient, from: number, to: number) =>
    Promise.all(
      messages
        .slice(from, to)
        .map((m, i) => client.publish(m.kind, { seq: from + i + 1, ...(m.body as object) })),
    );
  let client = await connectGateway(server.mqttUrl, gateway);
  await send(client, 0, replayFrom + 2);
  await client.waitForAck(replayFrom + 2);
  await client.close();
  // The link came back: the gateway resends from its oldest unacknowledged message it believes
  // in (here two already acknowledged ones: duplicates that must change nothing) to the end.
  client = await connectGateway(server.mqttUrl, gateway);
  await send(client, replayFrom, messages.length);
  await client.waitForAck(messages.length);
  await client.close();
  seqSent = messages.length;
};

beforeAll(async () => {
  server = await startTestServer({ TIMEZONE: 'Asia/Shanghai' });
  make = factories(server.linewatch);
  line = await make.createLine();
  lineName = line.name;
  const gateway = await make.createGateway();
  sn = await make.createDevice({ line, gateway, ppmTarget: PPM_TARGET, produceTargetNumber: 900 });
  await server.linewatch.database.db
    .updateTable('devices')
    .set({
      yield_target: TARGETS.yield,
      superiority_rate_target: TARGETS.superiority,
      use_rate_target: TARGETS.useRate,
    })
    .where('sn_code', '=', sn)
    .execute();
  const user = await make.createUser({ lines: [line] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);
  gatewayCredentials = gateway;
  await publishAll(gateway);
}, 60_000);
afterAll(() => server?.close());

const get = <T>(path: string, query: Record<string, string | number>) =>
  api(server.baseUrl, keyId)
    .get<T>(path, { snCode: sn, ...query })
    .then((r) => {
      expect(r.body.code, r.text).toBe('0000');
      return r.body.data;
    });

describe('data truth: what the endpoints say equals what the script means', () => {
  it('day views: every hour of each day, DT and the alarm TOP5', async () => {
    for (const day of [D1, D2]) {
      const hours = sum((m) => (localDay(m) === day ? localHour(m) : null));
      const reply = await get<HistoryReply>(historyApi.history.path, {
        beginTime: day,
        endTime: day,
      });
      expect(reply.hasData).toBe(true);
      expect(reply.threeParamList).toHaveLength(24);
      for (const row of reply.threeParamList) expectRow(row, hours.get(row.dataDate));
      expect(reply.dtList.map((r) => r.dtTime)).toEqual(
        reply.dtList.map((r) => dtMinutes(hours.get(r.dataDate))),
      );
      expect(reply.threeParam.map((p) => p.ppm)).toEqual(reply.threeParamList.map((r) => r.ppm));
    }
    const d1 = await get<HistoryReply>(historyApi.history.path, { beginTime: D1, endTime: D1 });
    expect(d1.dtTop).toEqual([
      expect.objectContaining({ code: 'E205', times: 1, duration: 20, percentage: 100 }),
    ]);
    expect(d1.dtTop[0]!.artificialDes).not.toBe('');
  });

  it('an empty day says so: no data, null ratios, no zeros pretending to be figures', async () => {
    const reply = await get<HistoryReply>(historyApi.history.path, { beginTime: D3, endTime: D3 });
    expect(reply.hasData).toBe(false);
    expect(reply.threeParam.every((p) => p.ppm === null && p.yield === null)).toBe(true);
    expect(reply.threeParamList.every((r) => !r.hasData && r.useRate === null)).toBe(true);
  });

  it('range view by day, the detail table and the DT endpoint agree with the script', async () => {
    const days = sum((m) => localDay(m));
    const range = { beginTime: D1, endTime: D3 };
    const reply = await get<HistoryReply>(historyApi.history.path, range);
    expect(reply.threeParamList.map((r) => r.dataDate)).toEqual([D1, D2, D3]);
    for (const row of reply.threeParamList) expectRow(row, days.get(row.dataDate));
    const detail = await get<HistoryDetailReply>(historyApi.detail.path, {
      startTime: D1,
      endTime: D3,
    });
    expect(detail.detailData).toEqual(reply.threeParamList);
    const dt = await get<HistoryDtReply>(historyApi.historyDt.path, range);
    expect(dt.dtList.map((r) => r.dtTime)).toEqual([D1, D2, D3].map((d) => dtMinutes(days.get(d))));
    expect(detail.dtData).toEqual(dt.dtList);

    // TOP5 over the range, most frequent first, longer first on a tie: E101 began twice (7 min),
    // E518 once and is still open, so it lasts until the end of the range (the end of yesterday),
    // E205 once (20 min).
    const e518 = (at(D3, '00:00') + DAY - at(D2, '09:00')) / MINUTE;
    const all = 7 + 20 + e518;
    expect(reply.dtTop.map((t) => [t.code, t.times, t.duration])).toEqual([
      ['E101', 2, 7],
      ['E518', 1, e518],
      ['E205', 1, 20],
    ]);
    expect(reply.dtTop[1]!.percentage).toBeCloseTo((e518 / all) * 100, 1);
  });

  it('week view sums the days of each week inside the range', async () => {
    // A week is labelled by its first day inside the range (its Monday, or D1 if before it).
    const weekOf = (day: string) => (mondayOf(day) < D1 ? D1 : mondayOf(day));
    const weeks = sum((m) => weekOf(localDay(m)));
    const reply = await get<HistoryReply>(historyApi.history.path, {
      beginTime: D1,
      endTime: D3,
      pageType: 'week',
    });
    expect(reply.pageType).toBe('week');
    expect(reply.threeParamList.map((r) => r.dataDate)).toEqual([
      ...new Set([D1, D2, D3].map(weekOf)),
    ]);
    for (const row of reply.threeParamList) expectRow(row, weeks.get(row.dataDate));
  });

  it('the device list of a past day shows the same day figures', async () => {
    const days = sum((m) => localDay(m));
    for (const day of [D1, D2]) {
      const list = await get<MachineListReply>(devicesApi.machineList.path, {
        dataDate: day,
        nameTag: sn,
      });
      const card = list.data.find((c) => c.snCode === sn)!;
      const e = days.get(day)!;
      expect(card.produceNumber).toBe(e.produced);
      expect(card.ngNumber).toBe(e.ng);
      expect(card.maxPPM).toBe(e.maxMinute);
      expect(card.ppm).toBeCloseTo(averagePpmOf(e)!, 1);
      expect(card.useRate).toBeCloseTo(ratio(e.running, e.running + e.idle + e.fault)!, 1);
      expect(card.targetPartial).toBe(false);
    }
  });

  it('statistics over whole days and over part days equal the script, waiting split by reason', async () => {
    const ranges = [
      // three whole days: the day rollups
      [`${D1} 00:00:00`, `${today} 00:00:00`],
      // from inside one day to inside the next: minutes at both ends
      [`${D1} 09:10:00`, `${D2} 08:40:00`],
    ] as const;
    for (const [dataStartDate, dataEndDate] of ranges) {
      const [from, to] = [Date.parse(`${dataStartDate}+08:00`), Date.parse(`${dataEndDate}+08:00`)];
      const e = sum((m) => (m >= from && m < to ? 'range' : null)).get('range')!;
      // Both ranges hold some of the upstream and the downstream wait.
      expect(e.idleUpstream * e.idleDownstream).toBeGreaterThan(0);
      const reply = await get<StatisticsReply>(statisticsApi.statistics.path, {
        filters: JSON.stringify({ productLine: lineName }),
        dataStartDate,
        dataEndDate,
      });
      expect(reply.total).toBe(1);
      const row = reply.data[0]!;
      const what = `${dataStartDate} – ${dataEndDate}`;
      expect(row.machineCode).toBe(sn);
      expect(row.produceNumber, what).toBe(e.produced);
      expect(row.ngNumber, what).toBe(e.ng);
      expect(row.maxPPM, what).toBe(e.maxMinute);
      expect(row.avgPPM, what).toBeCloseTo(averagePpmOf(e)!, 1);
      expect(row.yield, what).toBeCloseTo(ratio(e.ok, e.ok + e.ng)!, 1);
      expect(row.useRate, what).toBeCloseTo(ratio(e.running, e.running + e.idle + e.fault)!, 1);
      expect(row.runningTime, what).toBe(Math.round(e.running / 1000));
      expect(row.errorTime, what).toBe(Math.round(e.fault / 1000));
      expect(row.waitingTime, what).toBe(Math.round(e.idle / 1000));
      expect(row.preProcessWaitingTime, what).toBe(Math.round(e.idleUpstream / 1000));
      expect(row.afterProcessWaitingTime, what).toBe(Math.round(e.idleDownstream / 1000));
      expect(row.produceTargetNumber, what).toBe(Math.round((900 * (to - from)) / DAY));
    }
  });

  it('device log: the stop alarms of a day, paged, with the open one flagged current', async () => {
    const first = await get<StopAlarmReply>(historyApi.stopAlarms.path, {
      date: D2,
      pageNumber: 1,
      pageSize: 2,
    });
    expect(first.page).toEqual({ pageNumber: 1, pageSize: 2, total: 3, totalPage: 2 });
    expect(first.currentWarning).toEqual([
      { contentStr: 'E518 温度过高', beginTime: `${D2} 09:00:00`, endTime: null, state: 1 },
    ]);
    expect(first.data.map((a) => [a.contentStr, a.beginTime, a.endTime, a.state])).toEqual([
      ['E518 温度过高', `${D2} 09:00:00`, null, 1],
      ['E101 送料超时', `${D2} 08:45:00`, `${D2} 08:47:00`, 0],
    ]);
    const second = await get<StopAlarmReply>(historyApi.stopAlarms.path, {
      date: D2,
      pageNumber: 2,
      pageSize: 2,
    });
    expect(second.data.map((a) => a.beginTime)).toEqual([`${D2} 08:30:00`]);
    const d1 = await get<StopAlarmReply>(historyApi.stopAlarms.path, { date: D1 });
    expect(d1.page.pageSize).toBe(11);
    expect(d1.data).toEqual([
      {
        contentStr: 'E205 气压不足',
        beginTime: `${D1} 09:40:00`,
        endTime: `${D1} 10:00:00`,
        state: 0,
      },
    ]);
  });

  it('device log: operation lines, the re-baseline included, newest first', async () => {
    const reply = await get<OperationLogReply>(historyApi.operationLog.path, {
      startTime: D1,
      endTime: D2,
      pageIndex: 1,
      pageSize: 2,
    });
    expect(rebaselines).toHaveLength(1);
    expect(reply.total).toBe(3);
    expect(reply.totalPage).toBe(2);
    expect(reply.data).toEqual([
      { logComment: '', information: '温度 180', recordTime: `${D2} 08:50:00`, userName: '李四' },
      {
        logComment: '调整节拍',
        information: 'ppm 60→65',
        recordTime: `${D2} 08:40:00`,
        userName: '张三',
      },
    ]);
    const last = await get<OperationLogReply>(historyApi.operationLog.path, {
      startTime: D1,
      endTime: D2,
      pageIndex: 2,
      pageSize: 2,
    });
    expect(last.data).toEqual([
      expect.objectContaining({
        logComment: '计数器重新基准',
        userName: 'system',
        recordTime: `${D1} 11:00:00`,
      }),
    ]);
  });
  it("past the minutes' retention: the same hours, days, weeks and whole-day statistics", async () => {
    const views = () =>
      Promise.all([
        ...[D1, D2, D3].map((day) =>
          get<HistoryReply>(historyApi.history.path, { beginTime: day, endTime: day }),
        ),
        get<HistoryReply>(historyApi.history.path, { beginTime: D1, endTime: D3 }),
        get<HistoryReply>(historyApi.history.path, {
          beginTime: D1,
          endTime: D3,
          pageType: 'week',
        }),
        get<HistoryDetailReply>(historyApi.detail.path, { startTime: D1, endTime: D3 }),
        get<StatisticsReply>(statisticsApi.statistics.path, {
          filters: JSON.stringify({ productLine: lineName }),
          dataStartDate: `${D1} 00:00:00`,
          dataEndDate: `${today} 00:00:00`,
        }),
      ]);
    const before = await views();
    const d1 = before[0] as HistoryReply;
    expect(d1.threeParamList.filter((h) => h.hasData).length).toBeGreaterThan(3);
    // What the partition job leaves of days older than MINUTE_RETENTION_DAYS: no minute at all.
    const { db } = server.linewatch.database;
    const dropped = await db
      .deleteFrom('rollup_minute')
      .where('sn_code', '=', sn)
      .where('minute', '<', new Date(at(today, '00:00')))
      .executeTakeFirst();
    expect(Number(dropped.numDeletedRows)).toBe(minutes.size);
    expect(await views()).toEqual(before);
  });

  it('the daily report of a day older than yesterday, by hour, and the weekly report, by day', async () => {
    const close = (actual: number | null, expected: number | null, what: string) =>
      expected === null
        ? expect(actual, what).toBeNull()
        : expect(actual, what).toBeCloseTo(expected, 1);
    const daily = await get<ReportReply>(alertsApi.report.path, { alarmType: 'date', endTime: D1 });
    const hours = sum((m) => (localDay(m) === D1 ? localHour(m) : null));
    expect(daily.threeParam.map((p) => p.date)).toEqual([...hours.keys()].sort());
    for (const p of daily.threeParam) {
      const e = hours.get(p.date)!;
      close(p.ppm, averagePpmOf(e), `${D1} ${p.date}`);
      close(p.yield, ratio(e.ok, e.ok + e.ng), `${D1} ${p.date}`);
      close(p.activation, ratio(e.running, e.running + e.idle + e.fault), `${D1} ${p.date}`);
      // Never above the hour's best minute (the report shows no max; the truth has it).
      if (p.ppm !== null) expect(p.ppm).toBeLessThanOrEqual(e.maxMinute);
    }
    const weekly = await get<ReportReply>(alertsApi.report.path, {
      alarmType: 'week',
      endTime: D2,
    });
    const days = sum((m) => localDay(m));
    expect(weekly.threeParam.map((p) => p.date)).toEqual([D1, D2]);
    for (const p of weekly.threeParam) {
      const e = days.get(p.date)!;
      close(p.ppm, averagePpmOf(e), p.date);
      close(p.yield, ratio(e.ok, e.ok + e.ng), p.date);
      close(p.activation, ratio(e.running, e.running + e.idle + e.fault), p.date);
    }
    expect(weekly.dt.map((d) => d.value)).toEqual(
      [D1, D2].map((d) => Math.round(days.get(d)!.fault / MINUTE)),
    );
  });

  it('a machine that just started: average PPM over the minutes the peak is the best of', async () => {
    // It starts 45 s into the last minute and reports every 5 s, 3 parts each time: 15 s of
    // running and 6 parts in that minute, 3 more in this one. Per running minute the average would
    // read 36 over a peak of 6; over the two minutes covered it is 4.5.
    const started = await make.createDevice({ line, gateway: gatewayCredentials, ppmTarget: 60 });
    const minuteStart = Date.now() - (Date.now() % MINUTE);
    const steps: Step[] = [0, 1, 2, 3].map((i) => ({
      ts: minuteStart - 15_000 + i * 5_000,
      status: 2,
      counters: { produced: 3 * i, ok: 3 * i, ng: 0, firstPassOk: 3 * i },
      alarms: [],
    }));
    const socket = openSocket(server.wsUrl, sockets.realtime.path(started), {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    const client = await connectGateway(server.mqttUrl, gatewayCredentials);
    let payload: RealtimePayload;
    try {
      seqSent++;
      await client.telemetry(
        seqSent,
        steps.map((s) => ({ ...reading(s), sn: started })),
      );
      await client.waitForAck(seqSent);
      payload = await socket.waitForMessage<RealtimePayload>(
        (m) => m.SN === started && m.updatedAt === steps.at(-1)!.ts,
      );
    } finally {
      await client.close();
      socket.close();
    }
    const { minutes: its } = minutesOf(steps, 60);
    const e = sumMinutes(its, () => 'all').get('all')!;
    expect([e.maxMinute, e.covered, averagePpmOf(e)]).toEqual([6, 2, 4.5]);
    const figure = (key: string) => payload.productData.find((d) => d.key === key)!.value;
    expect(figure('peakPpm')).toBe(e.maxMinute);
    expect(figure('avgPpm')).toBe(averagePpmOf(e));

    // The day view of today and the device list say the same of it.
    const hours = sumMinutes(its, localHour);
    const reply = await api(server.baseUrl, keyId)
      .get<HistoryReply>(historyApi.history.path, {
        snCode: started,
        beginTime: localDay(minuteStart),
        endTime: localDay(minuteStart),
      })
      .then((r) => r.body.data);
    for (const row of reply.threeParamList.filter((r) => r.hasData)) {
      const h = hours.get(row.dataDate)!;
      expect(row.maxPPM).toBe(h.maxMinute);
      expect(row.ppm).toBeCloseTo(averagePpmOf(h)!, 1);
      expect(row.ppm!).toBeLessThanOrEqual(row.maxPPM);
    }
    expect(reply.threeParamList.filter((r) => r.hasData).map((r) => r.dataDate)).toEqual([
      ...hours.keys(),
    ]);
    const list = await api(server.baseUrl, keyId)
      .get<MachineListReply>(devicesApi.machineList.path, { nameTag: started })
      .then((r) => r.body.data);
    const card = list.data.find((c) => c.snCode === started)!;
    expect([card.maxPPM, card.ppm]).toEqual([6, 4.5]);
  });

  it('the real-time report and the list of today: a run still going, to the last minute', async () => {
    // Last in this file: today's readings end D2's open E518, which the log test reads as current.
    // Readings of the last minutes are made and sent now, and the report read: early in a minute,
    // so that its real-time PPM (the last complete minute's count) is usually that of this one.
    const intoMinute = Date.now() % MINUTE;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, MINUTE - intoMinute + 1_000));
    const now = Date.now();
    const midnight = at(localDay(now), '00:00');
    // Running, a fault with E205, idle waiting downstream, running again to now (fewer minutes
    // just after midnight: the script below counts what there is).
    const start = Math.max(now - 8 * MINUTE, midnight);
    const first = script.length;
    segment(start, start + 2 * MINUTE, 2);
    segment(start + 2 * MINUTE, start + 3 * MINUTE, 3, { alarms: ['E205'] });
    segment(start + 3 * MINUTE, start + 4 * MINUTE, 1, { idleReason: 'downstream' });
    segment(start + 4 * MINUTE, now, 2);
    const steps = script.slice(first - 1);
    const last = steps.at(-1)!;

    const client = await connectGateway(server.mqttUrl, gatewayCredentials);
    try {
      const live = steps.slice(1);
      for (let i = 0; i < live.length; i += 100) {
        seqSent++;
        await client.telemetry(seqSent, live.slice(i, i + 100).map(reading));
      }
      await client.waitForAck(seqSent);
    } finally {
      await client.close();
    }

    // What the script says of today (the readings before it are days old: a silence, whose parts
    // are in the totals but in no minute).
    const { minutes: todays } = minutesOf(steps, PPM_TARGET);
    const day = sum((m) => (localDay(m) === localDay(now) ? 'today' : null), todays).get('today')!;
    const socket = openSocket(server.wsUrl, sockets.realtime.path(sn), {
      headers: { [KEY_ID_HEADER]: keyId },
    });
    const before = Date.now();
    let payload: RealtimePayload;
    try {
      payload = await socket.waitForMessage<RealtimePayload>(
        (m) => m.SN === sn && m.updatedAt === last.ts,
      );
    } finally {
      socket.close();
    }
    const after = Date.now();
    /** Each value `of(t)` can take for a moment t at which the server made the payload. */
    const possible = <T>(of: (t: number) => T, step: number) => {
      const values: T[] = [];
      for (let t = now - (now % step); t <= after; t += step) values.push(of(Math.max(t, now)));
      return values;
    };

    expect(payload.EquipmentStatus).toBe(2);
    expect(payload.alarms).toEqual([]);
    const figure = (key: string) => payload.productData.find((d) => d.key === key)!.value;
    expect(figure('produced')).toBe(day.produced);
    expect(figure('ok')).toBe(day.ok);
    expect(figure('ng')).toBe(day.ng);
    expect(figure('peakPpm')).toBe(day.maxMinute);
    expect(figure('dt')).toBe(Math.round(day.fault / 1000));
    const close = (actual: number | null, expected: number | null) =>
      expected === null ? expect(actual).toBeNull() : expect(actual).toBeCloseTo(expected, 1);
    close(figure('yield'), ratio(day.ok, day.ok + day.ng));
    close(figure('avgPpm'), averagePpmOf(day));
    // 实时PPM: the last complete minute, if the machine was observed through all of it (the
    // readings are sent early in a minute: the reply normally comes within it).
    const ppmAt = (t: number) => {
      const lastMinute = t - (t % MINUTE) - MINUTE;
      const minute = todays.get(lastMinute);
      if (steps[1]!.ts > lastMinute) return null;
      return minute ? minute.produced - minute.gap : 0;
    };
    expect(possible(ppmAt, MINUTE)).toContain(figure('ppm'));

    // The count target is due in proportion to the part of the day gone.
    const due = (t: number) => Math.round((900 * (t - midnight)) / DAY);
    const [count, ok] = payload.progress;
    expect(count).toMatchObject({ existing: day.produced, amountName: targetLabels.soFar });
    expect(count!.amount).toBeGreaterThanOrEqual(due(before));
    expect(count!.amount).toBeLessThanOrEqual(due(after));
    expect(ok).toMatchObject({ existing: day.ok, amount: day.produced });
    expect(ok!.percent).toBe(
      day.ok === 0 || day.produced === 0
        ? '0.00'
        : Math.min(100, (day.ok / day.produced) * 100).toFixed(2),
    );

    // Parts per hour over the last 24 hours, oldest first: only today's run is that recent.
    const hours = sum((m) => String(m - (m % HOUR)), todays);
    const hourlyAt = (t: number) =>
      Array.from({ length: 24 }, (_, i) => {
        const hour = t - (t % HOUR) - (23 - i) * HOUR;
        return [localHour(hour), hours.get(String(hour))?.produced ?? 0];
      });
    expect(possible(hourlyAt, HOUR)).toContainEqual(
      payload.dateData.map((h) => [h.hour, h.produced]),
    );

    // The device list of today: the same figures, against the target due so far.
    const list = await get<MachineListReply>(devicesApi.machineList.path, { nameTag: sn });
    const card = list.data.find((c) => c.snCode === sn)!;
    expect(card.produceNumber).toBe(day.produced);
    expect(card.ngNumber).toBe(day.ng);
    expect(card.maxPPM).toBe(day.maxMinute);
    expect(card.targetPartial).toBe(true);
  });
});
