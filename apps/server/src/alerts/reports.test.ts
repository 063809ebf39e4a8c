import type { InboxReply, ReportReply } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { KEY_ID_HEADER } from '@linewatch/contracts/limits';
import { Cron } from 'croner';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const HOUR = 3_600_000;
/** Monday 2026-03-09 08:00 in Asia/Shanghai: the daily job reports Sunday, the weekly job the week before. */
const MONDAY_8AM = Date.parse('2026-03-09T00:00:00Z');

let server: TestServer;
let user: ReturnType<typeof api>;
let keyId: string;
let sn: string;
let quietSn: string;

const day = (
  d: string,
  f: { produced: number; ok: number; ng: number; running: number; idle: number; fault: number },
) => ({
  sn_code: sn,
  day: d,
  produced: f.produced,
  ok: f.ok,
  ng: f.ng,
  first_pass_ok: f.ok,
  running_ms: f.running,
  idle_ms: f.idle,
  fault_ms: f.fault,
  max_minute_produced: 90,
  // Whole minutes of running: PPM covers as many minutes as the machine ran.
  covered_minutes: f.running / 60_000,
});

const SUNDAY = {
  produced: 4800,
  ok: 4700,
  ng: 100,
  running: 20 * HOUR,
  idle: 2 * HOUR,
  fault: 2 * HOUR,
};
const THURSDAY = { produced: 1000, ok: 1000, ng: 0, running: 10 * HOUR, idle: 0, fault: 0 };

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const line = await make.createLine();
  [sn, quietSn] = (await make.createDevices(2, { line, deviceName: '回流焊', ppmTarget: 60 })) as [
    string,
    string,
  ];
  const db = server.linewatch.database.db;
  await db.updateTable('devices').set({ yield_target: 95, use_rate_target: 85 }).execute();
  await db
    .insertInto('rollup_day')
    .values([day('2026-03-08', SUNDAY), day('2026-03-05', THURSDAY)])
    .execute();
  // The day report reads hours (kept for good; the day's minutes may be gone).
  await db
    .insertInto('rollup_hour')
    .values({
      sn_code: sn,
      hour: new Date('2026-03-08T02:00:00Z'),
      produced: 60,
      ok: 60,
      first_pass_ok: 60,
      running_ms: 60_000,
      max_minute_produced: 60,
      covered_minutes: 1,
    })
    .execute();
  // Sunday in Shanghai: E101 10:00–10:30 and 14:00–14:10; E205 from 23:50 into Monday.
  await db
    .insertInto('alarms')
    .values([
      {
        sn_code: sn,
        code: 'E101',
        begin_at: new Date('2026-03-08T02:00:00Z'),
        end_at: new Date('2026-03-08T02:30:00Z'),
      },
      {
        sn_code: sn,
        code: 'E101',
        begin_at: new Date('2026-03-08T06:00:00Z'),
        end_at: new Date('2026-03-08T06:10:00Z'),
      },
      {
        sn_code: sn,
        code: 'E205',
        begin_at: new Date('2026-03-08T15:50:00Z'),
        end_at: new Date('2026-03-08T16:20:00Z'),
      },
    ])
    .execute();
  const u = await make.createUser({ lines: [line] });
  await db
    .insertInto('user_follows')
    .values([
      { user_id: u.id, sn_code: sn, daily: true, week: true },
      { user_id: u.id, sn_code: quietSn, alarm: true },
    ])
    .execute();
  keyId = await login(server.baseUrl, u.psnCode, u.password);
  user = api(server.baseUrl, keyId);
});
afterAll(() => server?.close());

const round2 = (n: number) => Math.round(n * 100) / 100;

describe('daily and weekly reports', () => {
  it('are scheduled at 08:00 in the factory time zone, the weekly one on Mondays', () => {
    const daily = new Cron('0 8 * * *', { timezone: 'Asia/Shanghai', paused: true });
    const weekly = new Cron('0 8 * * 1', { timezone: 'Asia/Shanghai', paused: true });
    expect(daily.nextRun(new Date('2026-03-08T01:00:00Z'))?.getTime()).toBe(MONDAY_8AM);
    expect(weekly.nextRun(new Date('2026-03-04T00:00:00Z'))?.getTime()).toBe(MONDAY_8AM);
  });

  it('the 08:00 jobs write one message per user whose figures match the rollups, once', async () => {
    const { service } = server.linewatch.app.alerts;
    // Two instances whose clocks both say 08:00 (the jobs claim lets one run; were both to run,
    // the dedupe key still writes one message).
    expect(await Promise.all([service.runDaily(MONDAY_8AM), service.runDaily(MONDAY_8AM)])).toEqual(
      [1, 1],
    );
    await service.runDaily(MONDAY_8AM + 60_000);
    await service.runWeekly(MONDAY_8AM);

    const inbox = (await user.get<InboxReply>(alertsApi.inbox.path)).body.data.data;
    expect(inbox.map((m) => m.title).sort()).toEqual([
      '周报 2026-03-02 至 2026-03-08',
      '日报 2026-03-08',
    ]);
    // Independently: PPM = parts / covered minutes (here the running ones), yield = ok / (ok + ng), utilisation = running / observed.
    const s = SUNDAY;
    const ppm = round2(s.produced / (s.running / 60_000));
    const yieldPct = round2((s.ok / (s.ok + s.ng)) * 100);
    const use = round2((s.running / (s.running + s.idle + s.fault)) * 100);
    const daily = inbox.find((m) => m.kind === 'daily')!;
    expect(daily.body).toBe(
      `${sn} 回流焊：PPM ${ppm}/60，良率 ${yieldPct}%/95%，稼动率 ${use}%/85%，DT 120分钟，报警 3次`,
    );
    expect(daily.link).toBe(`/report?snCode=${sn}&alarmType=date&beginTime=2026-03-08&isReport=1`);
    const w = { produced: 5800, ok: 5700, ng: 100, running: 30 * HOUR, observed: 34 * HOUR };
    const weekly = inbox.find((m) => m.kind === 'week')!;
    expect(weekly.body).toContain(
      `PPM ${round2(w.produced / (w.running / 60_000))}/60，良率 ${round2((w.ok / (w.ok + w.ng)) * 100)}%/95%，稼动率 ${round2((w.running / w.observed) * 100)}%/85%`,
    );
  });

  it('serves the report by hour for a day and day by day over 15 days for a week', async () => {
    const date = await user.get<ReportReply>(alertsApi.report.path, {
      snCode: sn,
      alarmType: 'date',
      endTime: '2026-03-08',
    });
    expect(date.status, date.text).toBe(200);
    expect(date.body.data).toMatchObject({
      pageType: 'date',
      beginTime: '2026-03-08',
      threeParam: [{ date: '10:00', ppm: 60, yield: 100, activation: 100 }],
      dtTop: [
        {
          code: 'E101',
          description: '送料超时',
          times: 2,
          duration: 40,
          percentage: 80,
          artificialDes: '检查送料机构与物料到位传感器',
        },
        { code: 'E205', description: '气压不足', times: 1, duration: 10, percentage: 20 },
      ],
    });
    const week = await user.get<ReportReply>(alertsApi.report.path, {
      snCode: sn,
      alarmType: 'week',
      endTime: '2026-03-08',
    });
    expect(week.body.data.beginTime).toBe('2026-02-21');
    expect(week.body.data.threeParam.map((p) => p.date)).toEqual(['2026-03-05', '2026-03-08']);
    expect(week.body.data.dt).toEqual([
      { date: '2026-03-05', value: 0 },
      { date: '2026-03-08', value: 120 },
    ]);
  });

  it('downloads the report as a named .xlsx: a title row, fitted columns, real dates, the manual', async () => {
    const response = await fetch(
      `${server.baseUrl}${alertsApi.reportXlsx.path}?snCode=${sn}&alarmType=week&endTime=2026-03-08`,
      { headers: { [KEY_ID_HEADER]: keyId } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${sn}-weekly-2026-03-08.xlsx"; ` +
        `filename*=UTF-8''${encodeURIComponent(`${sn}-周报-2026-03-08.xlsx`)}`,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await response.arrayBuffer());
    expect(book.worksheets.map((w) => w.name)).toEqual(['三参数', 'DT', '报警记录']);
    for (const sheet of book.worksheets) {
      // The machine and the period, above the header.
      expect(sheet.getCell('A1').value).toBe(`${sn} 回流焊 周报 2026-02-21 至 2026-03-08`);
      expect(sheet.getRow(2).font?.bold).toBe(true);
      // Every column wide enough for its header (a CJK character counts two).
      sheet.getRow(2).eachCell((cell, col) => {
        const header = cell.text;
        const needed = [...header].reduce((w, ch) => w + (/[\u2e80-\uffff]/.test(ch) ? 2 : 1), 0);
        expect(sheet.getColumn(col).width, header).toBeGreaterThanOrEqual(needed);
      });
    }
    const dt = book.getWorksheet('DT')!;
    expect(dt.getRow(2).values).toEqual([undefined, '日期', 'DT(分钟)']);
    expect(dt.getRow(4).values).toEqual([undefined, new Date('2026-03-08T00:00:00Z'), 120]);
    expect(dt.getCell('A4').numFmt).toBe('yyyy-mm-dd');
    expect(dt.getColumn(1).width).toBeGreaterThanOrEqual('2026-03-08'.length);
    const alarms = book.getWorksheet('报警记录')!;
    expect(alarms.getRow(3).values).toEqual([
      undefined,
      'E101',
      '送料超时',
      2,
      40,
      80,
      '检查送料机构与物料到位传感器',
    ]);
    expect(alarms.getColumn(6).width).toBeGreaterThanOrEqual(
      '检查送料机构与物料到位传感器'.length * 2,
    );
  });

  it('downloads a day report with its hours as date-times', async () => {
    const response = await fetch(
      `${server.baseUrl}${alertsApi.reportXlsx.path}?snCode=${sn}&alarmType=date&endTime=2026-03-08`,
      { headers: { [KEY_ID_HEADER]: keyId } },
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await response.arrayBuffer());
    const three = book.getWorksheet('三参数')!;
    expect(three.getCell('A1').value).toBe(`${sn} 回流焊 日报 2026-03-08`);
    expect(three.getCell('A3').value).toEqual(new Date('2026-03-08T10:00:00Z'));
    expect(three.getCell('A3').numFmt).toBe('yyyy-mm-dd hh:mm');
  });
});
