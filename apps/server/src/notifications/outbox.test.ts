import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotifications } from './service.ts';
import {
  startDingtalkMessageFake,
  type DingtalkMessageFake,
} from '../test/fakes/dingtalk-message-fake.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fakes/webhook-receiver.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { waitFor } from '../test/wait.ts';
import type { Channel } from './channels/channel.ts';
import { dingtalkChannel } from './channels/dingtalk.ts';
import { webhookChannel } from './channels/webhook.ts';
import { WebhookTargets } from './channels/webhook-target.ts';
import { backoffMs, Outbox } from './outbox.ts';
import { createNotificationsRepository } from './repository.ts';

const SECRET = 'webhook-test-secret-0123456789';
const silent = { warn: () => undefined, error: () => undefined };

let testDb: TestDb;
let receiver: WebhookReceiver;
let dingtalk: DingtalkMessageFake;
let userId: number;
let sequence = 0;

beforeAll(async () => {
  testDb = await openTestDb();
  receiver = await startWebhookReceiver(SECRET);
  dingtalk = await startDingtalkMessageFake({ appKey: 'dd-key', appSecret: 'dd-secret' });
  ({ id: userId } = await testDb.db
    .insertInto('users')
    .values({ psn_code: 'outbox-1', name: '投递', password_hash: 'x' })
    .returning('id')
    .executeTakeFirstOrThrow());
  await testDb.db
    .insertInto('notification_settings')
    .values({ user_id: userId, webhook_url: receiver.url })
    .execute();
  await testDb.db
    .insertInto('user_identities')
    .values({ provider: 'dingtalk', subject: 'dd-outbox-1', user_id: userId })
    .execute();
});
afterAll(async () => {
  await Promise.all([receiver?.close(), dingtalk?.close()]);
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.deleteFrom('outbox').execute();
  receiver.deliveries.length = 0;
});

const repo = () => createNotificationsRepository(testDb.db);

/** A notice written as a cause would write it: in-app row and one outbox row per channel. */
const queue = async (title: string, channel: 'webhook' | 'dingtalk' = 'webhook') => {
  const key = `test:${++sequence}`;
  await testDb.db.transaction().execute((tx) =>
    createNotifications(testDb.db, { channels: [channel] }).notify(tx, [
      {
        userId,
        kind: 'alarm',
        title,
        body: '正文',
        link: '/faultAlarm?casesId=1',
        dedupeKey: key,
      },
    ]),
  );
  return key;
};

const outboxRows = () =>
  testDb.db
    .selectFrom('outbox')
    .select(['id', 'status', 'attempts', 'last_error'])
    .orderBy('id')
    .execute();

/** The rows as the tests compare them. */
const outboxStates = async () =>
  (await outboxRows()).map(({ status, attempts, last_error }) => ({
    status,
    attempts,
    last_error,
  }));

/** The receiver is on 127.0.0.1: allowed as the test configuration allows it. */
const LOCAL = new WebhookTargets(['127.0.0.1']);

const worker = (
  options: ConstructorParameters<typeof Outbox>[3] = {},
  channels: Channel[] = [webhookChannel(SECRET, LOCAL)],
) =>
  new Outbox(repo(), channels, silent, {
    pollMs: 20,
    baseDelayMs: 10,
    ...options,
  });

describe('outbox', () => {
  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 100, 500))).toEqual([100, 200, 400, 500]);
  });

  it('retries a failing channel with backoff and then delivers once, signed', async () => {
    await queue('重试');
    receiver.failNext(3);
    const before = receiver.attempts;
    const w = worker();
    w.start();
    await waitFor(async () => (await outboxRows())[0]?.status === 'sent', { what: 'sent' });
    await w.close();
    expect(receiver.attempts - before).toBe(4);
    expect(w.failures.get('webhook')).toBe(3);
    expect(w.delivered.get('webhook')).toBe(1);
    expect(receiver.badSignatures()).toBe(0);
    expect(receiver.deliveries.map((d) => d.title)).toEqual(['重试']);
    expect(await outboxStates()).toEqual([{ status: 'sent', attempts: 4, last_error: null }]);
  });

  it('marks a message failed after its last attempt, with the error', async () => {
    await queue('失败');
    receiver.failNext(100);
    const w = worker({ maxAttempts: 3 });
    w.start();
    await waitFor(async () => (await outboxRows())[0]?.status === 'failed', { what: 'failed' });
    await w.close();
    receiver.failNext(0);
    expect(await outboxStates()).toEqual([
      { status: 'failed', attempts: 3, last_error: 'webhook: HTTP 500' },
    ]);
    expect(receiver.deliveries).toEqual([]);
  });

  it('tells its backlog by channel: due now, and waiting out a backoff', async () => {
    await queue('待发');
    const waiting = await queue('退避');
    await testDb.db
      .updateTable('outbox')
      .set({ next_attempt_at: new Date(Date.now() + 60_000) })
      .where('notification_id', 'in', (q) =>
        q.selectFrom('notifications').select('id').where('dedupe_key', '=', waiting),
      )
      .execute();
    await queue('钉钉', 'dingtalk');
    const w = worker();
    const backlog = await w.backlog();
    expect(backlog.sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
      { channel: 'dingtalk', due: 1, waiting: 0 },
      { channel: 'webhook', due: 1, waiting: 1 },
    ]);
    expect(w.failures).toEqual(new Map([['webhook', 0]]));
  });

  it('two workers on one database send each message once', async () => {
    for (let i = 0; i < 30; i++) await queue(`并发${i}`);
    const before = receiver.attempts;
    const [a, b] = [worker(), worker()];
    await Promise.all([a.kick(), b.kick(), a.kick(), b.kick()]);
    await waitFor(async () => (await outboxRows()).every((r) => r.status === 'sent'), {
      what: 'all sent',
    });
    await Promise.all([a.close(), b.close()]);
    expect(receiver.attempts - before).toBe(30);
    expect(receiver.deliveries).toHaveLength(30);
  });

  it('a worker stopped mid-delivery finishes that delivery; its successor sends nothing again', async () => {
    await queue('停止');
    const gate = receiver.hold();
    const a = worker();
    a.start();
    await gate.arrived;
    const closing = a.close();
    gate.release();
    await closing;
    expect(await outboxStates()).toEqual([{ status: 'sent', attempts: 1, last_error: null }]);
    const b = worker();
    await b.kick();
    await b.close();
    expect(receiver.deliveries.map((d) => d.title)).toEqual(['停止']);
  });

  it('after a crash mid-delivery the successor resends under the same delivery id: received once', async () => {
    await queue('崩溃');
    const before = receiver.attempts;
    const gate = receiver.hold();
    const crashed = worker({ leaseMs: 100 });
    void crashed.kick();
    await gate.arrived;
    // The first worker hangs as if dead: its lease runs out and another takes the row over.
    const successor = worker({ leaseMs: 100 });
    successor.start();
    await waitFor(() => receiver.attempts - before === 2, { what: 'the resend' });
    gate.release();
    await waitFor(async () => (await outboxRows())[0]?.status === 'sent', { what: 'sent' });
    await Promise.all([successor.close(), crashed.close()]);
    expect(receiver.deliveries.map((d) => d.title)).toEqual(['崩溃']);
    expect((await outboxRows())[0]?.attempts).toBe(2);
  });

  it('a DingTalk work notice resent after a crash mid-delivery reaches the person once', async () => {
    await queue('钉钉崩溃', 'dingtalk');
    const ding = () =>
      dingtalkChannel({
        apiBase: dingtalk.baseUrl,
        appKey: 'dd-key',
        appSecret: 'dd-secret',
        agentId: '7',
      });
    const before = dingtalk.attempts;
    const gate = dingtalk.hold();
    const crashed = worker({ leaseMs: 100 }, [ding()]);
    void crashed.kick();
    await gate.arrived;
    // DingTalk took the notice but its answer never reached the dead worker: the successor
    // sends it again after the lease, with the same delivery id in the content.
    const successor = worker({ leaseMs: 100 }, [ding()]);
    successor.start();
    await waitFor(() => dingtalk.attempts - before === 2, { what: 'the resend' });
    gate.release();
    await waitFor(async () => (await outboxRows())[0]?.status === 'sent', { what: 'sent' });
    await Promise.all([successor.close(), crashed.close()]);
    const mine = dingtalk.notices.filter((n) => n.userid_list === 'dd-outbox-1');
    expect(mine.map((n) => n.msg.markdown?.title)).toEqual(['钉钉崩溃']);
    const { id } = await testDb.db.selectFrom('outbox').select('id').executeTakeFirstOrThrow();
    expect(mine[0]!.msg.markdown?.text.endsWith(`消息编号：lw-${id}`)).toBe(true);
  });

  it('fails a delivery the guard refuses at once: no retry would change the answer', async () => {
    await queue('拦截');
    const local = new URL(receiver.url);
    for (const target of [`http://localhost:${local.port}/hook`, receiver.url]) {
      await testDb.db
        .updateTable('outbox')
        .set({ target, status: 'pending', attempts: 0, next_attempt_at: new Date(0) })
        .execute();
      const w = worker({}, [webhookChannel(SECRET, new WebhookTargets())]);
      await w.kick();
      await w.close();
      expect((await outboxRows())[0]).toMatchObject({ status: 'failed', attempts: 1 });
    }
  });

  it('calls a DingTalk work notice sent once DingTalk says it reached the person, and counts one that did not', async () => {
    await queue('到达', 'dingtalk');
    await queue('离职', 'dingtalk');
    // The second person has left: DingTalk takes the notice (errcode 0) and delivers nothing.
    await testDb.db
      .updateTable('outbox')
      .set({ target: 'dd-left-company' })
      .where('id', '=', (await outboxRows())[1]!.id)
      .execute();
    dingtalk.leave('dd-left-company');
    const results = dingtalk.holdResults();
    const w = worker({}, [
      dingtalkChannel({
        apiBase: dingtalk.baseUrl,
        appKey: 'dd-key',
        appSecret: 'dd-secret',
        agentId: '7',
      }),
    ]);
    w.start();
    // Taken, not yet delivered: DingTalk sends work notices asynchronously.
    await waitFor(async () => (await outboxRows()).every((r) => r.status === 'accepted'), {
      what: 'accepted',
    });
    await waitFor(() => dingtalk.resultQueries() >= 2, { what: 'a look at the results' });
    expect((await outboxRows()).map((r) => r.status)).toEqual(['accepted', 'accepted']);
    results.release();
    await waitFor(async () => (await outboxRows()).every((r) => r.status !== 'accepted'), {
      what: 'the results',
    });
    await w.close();
    expect((await outboxRows()).map(({ status, last_error }) => ({ status, last_error }))).toEqual([
      { status: 'sent', last_error: null },
      { status: 'failed', last_error: 'dingtalk: not reached (invalid_user_id_list)' },
    ]);
    expect(w.delivered.get('dingtalk')).toBe(1);
    expect(w.notReached.get('dingtalk')).toBe(1);
  });

  it('never connects to a webhook address the allow-list does not take', async () => {
    await queue('内网');
    const local = new URL(receiver.url);
    await testDb.db
      .updateTable('outbox')
      .set({ target: `http://localhost:${local.port}/hook` })
      .execute();
    const before = receiver.attempts;
    // Saved before the address was refused (or resolving elsewhere now): refused at connect.
    const w = worker({ maxAttempts: 1 }, [webhookChannel(SECRET, new WebhookTargets())]);
    await w.kick();
    await w.close();
    expect(await outboxStates()).toEqual([
      { status: 'failed', attempts: 1, last_error: 'webhook: localhost is 127.0.0.1, not allowed' },
    ]);
    await testDb.db
      .updateTable('outbox')
      .set({ target: receiver.url, status: 'pending', next_attempt_at: new Date(0) })
      .execute();
    const literal = worker({ maxAttempts: 2 }, [webhookChannel(SECRET, new WebhookTargets())]);
    await literal.kick();
    await literal.close();
    expect((await outboxRows())[0]?.last_error).toBe('webhook: 127.0.0.1 is not allowed');
    expect(receiver.attempts).toBe(before);
    // The same name, its address allowed: resolved through the guard and delivered.
    await testDb.db
      .updateTable('outbox')
      .set({
        target: `http://localhost:${local.port}/hook`,
        status: 'pending',
        attempts: 0,
        next_attempt_at: new Date(0),
      })
      .execute();
    const allowed = worker({}, [webhookChannel(SECRET, new WebhookTargets(['127.0.0.0/8']))]);
    await allowed.kick();
    await allowed.close();
    expect((await outboxRows())[0]?.status).toBe('sent');
    expect(receiver.deliveries.map((d) => d.title)).toEqual(['内网']);
  });
});
