import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotifications } from '../notifications/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fakes/webhook-receiver.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { waitFor } from '../test/wait.ts';
import { webhookChannel } from './channels/webhook.ts';
import { backoffMs, Outbox } from './outbox.ts';

const SECRET = 'webhook-test-secret-0123456789';
const silent = { warn: () => undefined, error: () => undefined };

let testDb: TestDb;
let receiver: WebhookReceiver;
let userId: number;
let sequence = 0;

beforeAll(async () => {
  testDb = await openTestDb();
  receiver = await startWebhookReceiver(SECRET);
  ({ id: userId } = await testDb.db
    .insertInto('users')
    .values({ psn_code: 'outbox-1', name: '投递', password_hash: 'x' })
    .returning('id')
    .executeTakeFirstOrThrow());
  await testDb.db
    .insertInto('notification_settings')
    .values({ user_id: userId, webhook_url: receiver.url })
    .execute();
});
afterAll(async () => {
  await receiver?.close();
  await testDb?.close();
});
beforeEach(async () => {
  await testDb.db.deleteFrom('outbox').execute();
  receiver.deliveries.length = 0;
});

/** A notice written as a cause would write it: in-app row and one outbox row per channel. */
const queue = async (title: string) => {
  const key = `test:${++sequence}`;
  await testDb.db.transaction().execute((tx) =>
    createNotifications(['webhook']).notify(tx, [
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
    .select(['status', 'attempts', 'last_error'])
    .orderBy('id')
    .execute();

const worker = (options: ConstructorParameters<typeof Outbox>[3] = {}) =>
  new Outbox(testDb.db, [webhookChannel(SECRET)], silent, {
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
    expect(receiver.badSignatures()).toBe(0);
    expect(receiver.deliveries.map((d) => d.title)).toEqual(['重试']);
    expect(await outboxRows()).toEqual([{ status: 'sent', attempts: 4, last_error: null }]);
  });

  it('marks a message failed after its last attempt, with the error', async () => {
    await queue('失败');
    receiver.failNext(100);
    const w = worker({ maxAttempts: 3 });
    w.start();
    await waitFor(async () => (await outboxRows())[0]?.status === 'failed', { what: 'failed' });
    await w.close();
    receiver.failNext(0);
    expect(await outboxRows()).toEqual([
      { status: 'failed', attempts: 3, last_error: 'webhook: HTTP 500' },
    ]);
    expect(receiver.deliveries).toEqual([]);
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
    expect(await outboxRows()).toEqual([{ status: 'sent', attempts: 1, last_error: null }]);
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
});
