import { historyMessages, type HistoryReply } from '@linewatch/contracts/history';
import { historyApi } from '@linewatch/contracts/history-api';
import { pagingMessages } from '@linewatch/contracts/rules/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../foundation/shared/time.ts';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let keyId: string;
let sn: string;
let hiddenSn: string;

const DAY = 86_400_000;
const today = () => dayOf(Date.now(), 'Asia/Shanghai');
const daysAgo = (n: number) => dayOf(Date.now() - n * DAY, 'Asia/Shanghai');

beforeAll(async () => {
  server = await startTestServer({ TIMEZONE: 'Asia/Shanghai' });
  const make = factories(server.linewatch);
  const line = await make.createLine();
  const hidden = await make.createLine();
  sn = await make.createDevice({ line, nickSnCode: '一号机' });
  hiddenSn = await make.createDevice({ line: hidden });
  const user = await make.createUser({ lines: [line] });
  keyId = await login(server.baseUrl, user.psnCode, user.password);
});
afterAll(() => server?.close());

const every = [
  historyApi.history,
  historyApi.historyDt,
  historyApi.detail,
  historyApi.stopAlarms,
  historyApi.operationLog,
];
/** A valid query of each endpoint for `snCode`. */
const queryOf = (path: string, snCode: string, from = daysAgo(2), to = daysAgo(1)) =>
  path === historyApi.history.path || path === historyApi.historyDt.path
    ? { snCode, beginTime: from, endTime: to }
    : path === historyApi.stopAlarms.path
      ? { snCode, date: to }
      : { snCode, startTime: from, endTime: to };

describe('history and log endpoints: who may ask', () => {
  it('answer a machine the user may see', async () => {
    for (const e of every) {
      const reply = await api(server.baseUrl, keyId).get(e.path, queryOf(e.path, sn));
      expect(reply.body.code, `${e.path} ${reply.text}`).toBe('0000');
    }
  });

  it('refuse a machine on a line the user was not granted with 0403, and nobody signed out', async () => {
    for (const e of every) {
      const reply = await api(server.baseUrl, keyId).get(e.path, queryOf(e.path, hiddenSn));
      expect(reply.status, e.path).toBe(403);
      expect(reply.body).toMatchObject({ code: '0403', msg: '无权查看，请联系管理员' });
      const anonymous = await api(server.baseUrl).get(e.path, queryOf(e.path, sn));
      expect(anonymous.body.code, e.path).toBe('0405');
    }
  });

  it('an SN no machine has is 0404', async () => {
    const reply = await api(server.baseUrl, keyId).get(
      historyApi.history.path,
      queryOf(historyApi.history.path, 'NO-SUCH-SN'),
    );
    expect(reply.body.code).toBe('0404');
  });
});

describe('history and log endpoints: bad queries get the spec message and 0400', () => {
  const cases: [string, string, string, string][] = [
    ['not a date', '2026/01/01', daysAgo(1), historyMessages.badDate],
    ['an impossible date', '2025-02-29', '2025-03-01', historyMessages.badDate],
    ['before the calendar', '2013-12-31', '2014-01-02', historyMessages.outOfCalendar],
    ['start after end', daysAgo(1), daysAgo(3), historyMessages.startAfterEnd],
    ['more than 31 days', daysAgo(40), daysAgo(9), historyMessages.rangeTooLong],
  ];
  for (const [what, from, to, message] of cases) {
    it(what, async () => {
      for (const e of every.filter((x) => x !== historyApi.stopAlarms)) {
        const reply = await api(server.baseUrl, keyId).get(e.path, queryOf(e.path, sn, from, to));
        expect(reply.status, e.path).toBe(400);
        expect(reply.body, e.path).toMatchObject({ code: '0400', msg: message });
      }
    });
  }

  it('31 days is allowed', async () => {
    const reply = await api(server.baseUrl, keyId).get(historyApi.history.path, {
      snCode: sn,
      beginTime: daysAgo(31),
      endTime: daysAgo(1),
    });
    expect(reply.body.code, reply.text).toBe('0000');
    expect((reply.body.data as HistoryReply).threeParamList).toHaveLength(31);
  });

  it('a day after today', async () => {
    const tomorrow = dayOf(Date.parse(`${today()}T12:00:00+08:00`) + DAY, 'Asia/Shanghai');
    for (const e of every) {
      const reply = await api(server.baseUrl, keyId).get(
        e.path,
        queryOf(e.path, sn, today(), tomorrow),
      );
      expect(reply.body, e.path).toMatchObject({ code: '0400', msg: historyMessages.future });
    }
  });

  it('a query without its dates: 请补充查询条件 (docs/product.md section 8)', async () => {
    for (const e of every) {
      const reply = await api(server.baseUrl, keyId).get(e.path, { snCode: sn });
      expect(reply.status, e.path).toBe(400);
      expect(reply.body, e.path).toMatchObject({
        code: '0400',
        msg: historyMessages.needCondition,
      });
    }
  });

  it('no machine, a bad page type, a bad page', async () => {
    const base = api(server.baseUrl, keyId);
    const noSn = await base.get(historyApi.history.path, {
      beginTime: daysAgo(1),
      endTime: daysAgo(1),
    });
    expect(noSn.body).toMatchObject({ code: '0400', msg: historyMessages.noDevice });
    const week = await base.get(historyApi.history.path, {
      ...queryOf(historyApi.history.path, sn),
      pageType: 'month',
    });
    expect(week.body).toMatchObject({ code: '0400', msg: historyMessages.badPageType });
    const page = await base.get(historyApi.stopAlarms.path, {
      snCode: sn,
      date: daysAgo(1),
      pageNumber: 0,
    });
    expect(page.body).toMatchObject({ code: '0400', msg: pagingMessages.badPage });
  });
});

describe('history of a machine with nothing recorded', () => {
  it('today in day view: 24 hours, no data, the title fields', async () => {
    const reply = await api(server.baseUrl, keyId).get<HistoryReply>(historyApi.history.path, {
      snCode: sn,
      beginTime: today(),
      endTime: today(),
    });
    const data = reply.body.data;
    expect(data).toMatchObject({ snCode: sn, nickSnCode: '一号机', hasData: false, dtTop: [] });
    expect(data.threeParam).toHaveLength(24);
    expect(data.threeParamList.filter((r) => r.partial)).toHaveLength(1);
  });
});
