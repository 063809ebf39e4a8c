import type {
  ChannelSettings,
  InboxReply,
  ReportReply,
  UnreadReply,
} from '@linewatch/contracts/alerts';
import { alertMessages } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import type { Reading } from '@linewatch/contracts/mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestGateway, type TestLine } from '../test/factories.ts';
import {
  startDingtalkMessageFake,
  type DingtalkMessageFake,
} from '../test/fakes/dingtalk-message-fake.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fakes/webhook-receiver.ts';
import {
  startWechatMessageFake,
  type WechatMessageFake,
} from '../test/fakes/wechat-message-fake.ts';
import { connectGateway, reading, type GatewayClient } from '../test/gateway.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { waitFor } from '../test/wait.ts';

const WEBHOOK_SECRET = 'alerts-webhook-secret-0123456789';
const PUBLIC_URL = 'https://linewatch.example';
const MINUTE = 60_000;

let server: TestServer;
let wechat: WechatMessageFake;
let dingtalk: DingtalkMessageFake;
let webhook: WebhookReceiver;
let line: TestLine;
let gateway: TestGateway;
let link: GatewayClient;
let seq = 0;
let people = 0;

/**
 * A person signed in by WeChat and DingTalk, with a webhook, following fresh machines of their
 * own for the alarm, stop (5 minutes) and shortfall rules: each case has its own, so no case
 * depends on what another left behind (alarms still active, stops still open, messages).
 */
const subscriber = async (machines: number) => {
  const make = factories(server.linewatch);
  const n = ++people;
  const sns =
    machines > 0
      ? await make.createDevices(machines, { line, gateway, deviceName: '贴片机', ppmTarget: 60 })
      : [];
  const u = await make.createUser({ lines: [line] });
  await server.linewatch.database.db
    .insertInto('user_identities')
    .values([
      { provider: 'wechat', subject: `openid-${n}`, user_id: u.id },
      { provider: 'dingtalk', subject: `dd-user-${n}`, user_id: u.id },
    ])
    .execute();
  const client = api(server.baseUrl, await login(server.baseUrl, u.psnCode, u.password));
  const saved = await client.post<ChannelSettings>(alertsApi.saveChannels.path, {
    wechat: true,
    dingtalk: true,
    webhookUrl: webhook.url,
  });
  expect(saved.body.data, saved.text).toMatchObject({
    wechatAvailable: true,
    dingtalkAvailable: true,
    webhookUrl: webhook.url,
  });
  if (sns.length > 0) {
    const follow = await client.post(subscriptionsApi.addFollow.path, {
      snCode: sns.join(','),
      alarm: true,
      realTimeReminder: true,
      threeParameters: true,
      timeLength: 5 * MINUTE,
    });
    expect(follow.status, follow.text).toBe(200);
  }
  const inbox = async () => {
    const reply = await client.get<InboxReply>(alertsApi.inbox.path, { pageSize: 100 });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };
  const outbox = () =>
    server.linewatch.database.db
      .selectFrom('outbox as o')
      .innerJoin('notifications as n', 'n.id', 'o.notification_id')
      .select(['o.id', 'o.channel', 'o.status', 'o.attempts'])
      .where('n.user_id', '=', u.id)
      .orderBy('o.id')
      .execute();
  /** What each service received of this person's messages (by the outbox's delivery id). */
  const received = async () => {
    const ids = new Set((await outbox()).map((r) => `lw-${r.id}`));
    return {
      wechat: wechat.messages.filter((m) => ids.has(m.client_msg_id ?? '')),
      dingtalk: dingtalk.notices.filter((d) =>
        [...ids].some((id) => d.msg.markdown?.text.endsWith(`消息编号：${id}`)),
      ),
      webhook: webhook.deliveries.filter((d) => ids.has(d.id)),
    };
  };
  /** Resolves when every outbox row of this person is sent; returns them. */
  const allSent = (count: number) =>
    waitFor(
      async () => {
        const rows = await outbox();
        return rows.length === count && rows.every((r) => r.status === 'sent') && rows;
      },
      { what: `${count} outbox rows sent` },
    );
  return {
    id: u.id,
    sns,
    client,
    openId: `openid-${n}`,
    ddUser: `dd-user-${n}`,
    inbox,
    outbox,
    received,
    allSent,
  };
};

/** Publishes readings as the gateway; the ack follows the commit of the readings and the messages they cause. */
const publish = async (readings: Reading[]) => {
  seq++;
  await link.telemetry(seq, readings);
  await link.waitForAck(seq);
};

const withAlarms = (r: Reading, codes: string[]): Reading => ({
  ...r,
  alarms: codes.map((code) => ({ code, active: true })),
});

beforeAll(async () => {
  wechat = await startWechatMessageFake({ appId: 'wx-app', appSecret: 'wx-secret' });
  dingtalk = await startDingtalkMessageFake({ appKey: 'dd-key', appSecret: 'dd-secret' });
  webhook = await startWebhookReceiver(WEBHOOK_SECRET);
  server = await startTestServer({
    WECHAT_APPID: 'wx-app',
    WECHAT_SECRET: 'wx-secret',
    // The fake's alert template: 设备 / 编号 / 内容 / 时间.
    WECHAT_TEMPLATES: JSON.stringify({
      default: {
        id: 'tpl-1',
        data: { thing1: 'machine', character_string2: 'sn', thing3: 'content', time4: 'time' },
      },
    }),
    WECHAT_API_URL: wechat.baseUrl,
    DINGTALK_APPKEY: 'dd-key',
    DINGTALK_APPSECRET: 'dd-secret',
    DINGTALK_AGENT_ID: '1001',
    DINGTALK_API_URL: dingtalk.baseUrl,
    WEBHOOK_SECRET,
    // The webhook receiver is on this machine.
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    OUTBOX_RETRY_MS: '20',
    PUBLIC_URL,
  });
  const make = factories(server.linewatch);
  line = await make.createLine();
  gateway = await make.createGateway();
  link = await connectGateway(server.mqttUrl, gateway);
});
afterAll(async () => {
  await link?.close();
  await server?.close();
  await Promise.all([wechat?.close(), dingtalk?.close(), webhook?.close()]);
});

describe('alerts', () => {
  it('an alarm, a long stop and a shortfall each reach the subscriber once on every channel', async () => {
    const person = await subscriber(2);
    const [alarmSn, slowSn] = [person.sns[0]!, person.sns[1]!];
    // Follows the same machines without being granted their line: hears nothing of them.
    const outsider = await factories(server.linewatch).createUser({ lines: [] });
    await server.linewatch.database.db
      .insertInto('user_follows')
      .values(
        person.sns.map((sn) => ({
          user_id: outsider.id,
          sn_code: sn,
          alarm: true,
          real_time_reminder: true,
          three_parameters: true,
          time_length: 60_000,
        })),
      )
      .execute();
    // The first two WeChat requests fail (an outage): the outbox retries them. Nothing else is
    // in flight on the fake meanwhile (every case waits for its own messages to be sent).
    const wechatBefore = wechat.attempts;
    wechat.failNext(2);
    const t0 = Date.now() - 20 * MINUTE;
    const a = (dt: number, status: Reading['status'], codes: string[] = []) =>
      withAlarms(reading(alarmSn, { produced: 100 }, { ts: t0 + dt, status }), codes);
    await publish([a(0, 3, ['E101'])]);
    await publish([a(MINUTE, 3, ['E101'])]); // still the same episode
    await publish([a(6 * MINUTE, 3, ['E101'])]); // stopped > 5 min
    await publish([a(7 * MINUTE, 2)]); // recovered
    await publish([a(8 * MINUTE, 3, ['E101'])]); // a new episode

    // 56 minutes of slow running: 10 parts per 4 minutes against a PPM target of 60. One message,
    // so one flush: the server's own every-minute check (alerts/module.ts) sees all of it or none.
    // Sent one by one, a check falling between them judged the first readings only (CI, stop 33).
    const start = Date.now() - 57 * MINUTE;
    await publish(
      Array.from({ length: 14 }, (_, i) =>
        reading(slowSn, { produced: 1000 + i * 10 }, { ts: start + i * 4 * MINUTE }),
      ),
    );
    await server.linewatch.app.alerts.engine.checkShortfalls(Date.now());
    await server.linewatch.app.alerts.engine.checkShortfalls(Date.now());

    const messages = (await person.inbox()).data;
    const kinds = messages.map((m) => m.kind).sort();
    expect(kinds).toEqual(['alarm', 'alarm', 'realTimeReminder', 'threeParameters']);
    const caseId = (await server.linewatch.app.cases.caseIds()).get('E101');
    const alarm = messages.find((m) => m.kind === 'alarm')!;
    expect(alarm.body).toContain(alarmSn);
    expect(alarm.body).toContain('贴片机');
    expect(alarm.body).toContain('E101 送料超时');
    expect(alarm.link).toBe(`/faultAlarm?casesId=${caseId}`);
    expect(messages.find((m) => m.kind === 'realTimeReminder')!.body).toContain(
      '故障停机超过5分钟',
    );
    // 130 parts over the minutes PPM covers (contracts rules/figures.ts isCoveredMinute): the 52 minutes
    // of running touch 53 minutes, `start` not being on a minute.
    expect(messages.find((m) => m.kind === 'threeParameters')!.body).toContain(
      'PPM 2.45 低于目标 60',
    );

    const rows = await person.allSent(12);
    const got = await person.received();
    expect(got.wechat).toHaveLength(4);
    expect(got.dingtalk).toHaveLength(4);
    expect(got.webhook).toHaveLength(4);
    // Four messages, two failed attempts among them, each retried until it went through.
    const wechatRows = rows.filter((r) => r.channel === 'wechat');
    expect(wechatRows.reduce((sum, r) => sum + r.attempts, 0)).toBe(4 + 2);
    expect(wechat.attempts - wechatBefore).toBe(4 + 2);
    expect(got.wechat.every((m) => m.touser === person.openId && m.template_id === 'tpl-1')).toBe(
      true,
    );
    expect(got.wechat.map((m) => m.url)).toContain(`${PUBLIC_URL}/faultAlarm?casesId=${caseId}`);
    // Every field as the template shows it: nothing WeChat would cut, hide or refuse.
    expect(wechat.refusedData).toEqual([]);
    expect(got.wechat.map((m) => m.data.thing3?.value).sort()).toEqual(
      ['E101 送料超时', 'E101 送料超时', '故障停机超过5分钟', 'PPM 2.45 低于目标 60'].sort(),
    );
    expect(new Set(got.wechat.map((m) => m.data.character_string2?.value))).toEqual(
      new Set([alarmSn, slowSn]),
    );
    expect(got.dingtalk.every((n) => n.userid_list === person.ddUser && n.agent_id === 1001)).toBe(
      true,
    );
    expect(webhook.badSignatures()).toBe(0);
    expect(got.webhook.map((d) => d.title).sort()).toEqual(messages.map((m) => m.title).sort());
    const heard = await server.linewatch.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', outsider.id)
      .execute();
    expect(heard).toEqual([]);
  });

  it('a flush whose messages cannot be written commits neither its readings nor them; its retry commits both once', async () => {
    const person = await subscriber(1);
    const sn = person.sns[0]!;
    const db = server.linewatch.database.db;
    // A failure after the alert rules wrote their messages, inside the flush (as a crash there).
    let failing = true;
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => (failed = resolve));
    let writtenInFlush = -1;
    const remove = server.linewatch.app.ingestor.onFlush(async (tx) => {
      if (!failing) return;
      writtenInFlush = (
        await tx.selectFrom('notifications').select('id').where('user_id', '=', person.id).execute()
      ).length;
      failed();
      throw new Error('crash in the flush');
    });
    try {
      seq++;
      await link.telemetry(seq, [
        withAlarms(reading(sn, { produced: 5 }, { ts: Date.now() - MINUTE, status: 2 }), ['E205']),
      ]);
      await firstFailure;
      expect(writtenInFlush).toBe(1);
      // Rolled back: neither the alarm nor its message, and nothing acknowledged.
      expect(await person.outbox()).toEqual([]);
      expect(
        await db.selectFrom('alarms').select('code').where('sn_code', '=', sn).execute(),
      ).toEqual([]);
      expect(server.linewatch.app.ingestor.persistedSeq(gateway.id)).toBeLessThan(seq);
      failing = false;
      await link.waitForAck(seq);
    } finally {
      remove();
    }
    expect((await person.inbox()).data.map((m) => m.kind)).toEqual(['alarm']);
    await person.allSent(3);
    const got = await person.received();
    expect([got.wechat.length, got.dingtalk.length, got.webhook.length]).toEqual([1, 1, 1]);
  });

  it('judges a replayed buffer by reading time: a stop that ended in it, an alarm still active once', async () => {
    const person = await subscriber(1);
    const sn = person.sns[0]!;
    const t = Date.now() - 30 * MINUTE;
    // A gateway back from an outage sends its buffer at once: idle 7 minutes, then running, with
    // an alarm that has no troubleshooting case and stays active over several readings.
    await publish([
      withAlarms(reading(sn, { produced: 1 }, { ts: t, status: 1 }), ['E999']),
      withAlarms(reading(sn, { produced: 1 }, { ts: t + 3 * MINUTE, status: 1 }), ['E999']),
      withAlarms(reading(sn, { produced: 2 }, { ts: t + 7 * MINUTE, status: 2 }), ['E999']),
    ]);
    await publish([withAlarms(reading(sn, { produced: 3 }, { ts: t + 8 * MINUTE }), ['E999'])]);
    const messages = (await person.inbox()).data;
    expect(messages.map((m) => m.kind).sort()).toEqual(['alarm', 'realTimeReminder']);
    const alarm = messages.find((m) => m.kind === 'alarm')!;
    expect(alarm.body).toBe(`SN：${sn}，设备：贴片机，报警：E999`);
    expect(alarm.link).toBeNull();
    expect(messages.find((m) => m.kind === 'realTimeReminder')!.body).toBe(
      `SN：${sn} 已待机停机超过5分钟`,
    );
    await person.allSent(6);
  });

  it('fetches a new WeChat token when the old one is no longer valid', async () => {
    const person = await subscriber(1);
    const tokensBefore = wechat.tokensIssued();
    wechat.revokeToken();
    await publish([
      withAlarms(
        reading(person.sns[0]!, { produced: 100 }, { ts: Date.now() - MINUTE, status: 2 }),
        ['E205'],
      ),
    ]);
    await person.allSent(3);
    const got = await person.received();
    expect(got.wechat.map((m) => m.data.thing3?.value)).toEqual([expect.stringContaining('E205')]);
    expect(wechat.tokensIssued()).toBe(tokensBefore + 1);
  });

  it('counts unread messages and marks them read, only the user’s own', async () => {
    const person = await subscriber(1);
    const other = await subscriber(1);
    const sn = person.sns[0]!;
    const t = Date.now() - 10 * MINUTE;
    await publish([
      withAlarms(reading(sn, { produced: 1 }, { ts: t, status: 2 }), ['E101']),
      withAlarms(reading(other.sns[0]!, { produced: 1 }, { ts: t, status: 2 }), ['E101']),
    ]);
    await publish([
      withAlarms(reading(sn, { produced: 2 }, { ts: t + MINUTE, status: 2 }), ['E101', 'E205']),
    ]);
    const { data, unread } = await person.inbox();
    expect(data.map((m) => m.kind)).toEqual(['alarm', 'alarm']);
    expect(unread).toBe(2);
    const first = data[0]!;
    const theirs = (await other.inbox()).data[0]!;
    const marked = await person.client.post<UnreadReply>(alertsApi.markRead.path, {
      ids: [first.id, theirs.id],
    });
    expect(marked.body.data.unread).toBe(1);
    expect((await person.client.get<UnreadReply>(alertsApi.unread.path)).body.data.unread).toBe(1);
    expect((await other.inbox()).unread).toBe(1);
    const bad = await person.client.post(alertsApi.markRead.path, {});
    expect(bad.body).toMatchObject({ code: '0400', msg: alertMessages.badIds });
    const all = await person.client.post<UnreadReply>(alertsApi.markRead.path, { all: true });
    expect(all.body.data.unread).toBe(0);
    expect((await person.inbox()).data.every((m) => m.read)).toBe(true);
    expect((await other.inbox()).unread).toBe(1);
  });

  it('refuses, in Chinese and changing nothing, a webhook address that is not http(s), is inside the network or on this machine, or does not resolve', async () => {
    const person = await subscriber(0);
    for (const [webhookUrl, msg] of [
      ['ftp://x', alertMessages.badWebhook],
      ['http://169.254.169.254/latest/meta-data', alertMessages.webhookPrivate],
      ['http://192.168.1.20:8080/hook', alertMessages.webhookPrivate],
      ['http://[::1]:8080/hook', alertMessages.webhookPrivate],
      ['https://hooks.nothing.invalid/x', alertMessages.webhookUnresolved],
    ]) {
      const reply = await person.client.post(alertsApi.saveChannels.path, {
        wechat: false,
        dingtalk: true,
        webhookUrl,
      });
      expect([webhookUrl, reply.body]).toMatchObject([webhookUrl, { code: '0400', msg }]);
    }
    const read = await person.client.get<ChannelSettings>(alertsApi.channels.path);
    expect(read.body.data).toMatchObject({
      wechat: true,
      webhookUrl: webhook.url,
      account: { wechatBound: true },
    });
  });

  it('answers the report page: no device, a hidden device', async () => {
    const person = await subscriber(1);
    const none = await person.client.get<ReportReply>(alertsApi.report.path, {});
    expect(none.body).toMatchObject({ code: '0400', msg: alertMessages.chooseDevice });
    const stranger = await factories(server.linewatch).createUser({ lines: [] });
    const hidden = await api(
      server.baseUrl,
      await login(server.baseUrl, stranger.psnCode, stranger.password),
    ).get(alertsApi.report.path, { snCode: person.sns[0]! });
    expect(hidden.body.code).toBe('0403');
  });
});
