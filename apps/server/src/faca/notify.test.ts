import { facaApi } from '@linewatch/contracts/faca-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../test/fakes/webhook-receiver.ts';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { waitFor } from '../test/wait.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

const WEBHOOK_SECRET = 'faca-webhook-secret-0123456789ab';

let server: TestServer;
let webhook: WebhookReceiver;

beforeAll(async () => {
  webhook = await startWebhookReceiver(WEBHOOK_SECRET);
  // The receiver listens on loopback, which the webhook guard refuses unless allowed.
  server = await startTestServer({
    WEBHOOK_SECRET,
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    OUTBOX_RETRY_MS: '20',
  });
});
afterAll(async () => {
  await server?.close();
  await webhook?.close();
});

describe('a handler named on a CA hears of it through the outbox too (issue 11)', () => {
  it('gets the faca-task notice in the inbox and on their channel, once', async () => {
    const make = factories(server.linewatch);
    const line = await make.createLine();
    const sn = await make.createDevice({ line });
    const quality = await make.createUser({ lines: [line] });
    const handler = await make.createUser({ lines: [line] });
    const db = server.linewatch.database.db;
    await db
      .insertInto('notification_settings')
      .values({ user_id: handler.id, webhook_url: webhook.url })
      .execute();
    await db.insertInto('faca_workmanships').values({ name: '贴片' }).execute();
    await db.insertInto('faca_influence_parameters').values({ name: '温度' }).execute();
    const phone = api(
      server.baseUrl,
      await login(server.baseUrl, quality.psnCode, quality.password),
    );
    const saved = async (path: string, body: Record<string, unknown>) =>
      (await phone.post<{ id: number }>(path, body)).body.data.id;
    const facaInfoId = await saved(facaApi.addOrUpdateFacaInfo.path, {
      snCode: sn,
      workmanship: '贴片',
      count: 1,
      warningContent: await make.alarmText('E101'),
      facaDescription: '抛料',
      influenceParameters: '温度',
    });
    const faInfoId = await saved(facaApi.addOrUpdateFaInfo.path, {
      facaInfoId,
      faDescription: '吸嘴偏位',
    });
    const ca = {
      facaInfoId,
      faInfoId,
      caDescription: '更换吸嘴',
      handler: String(handler.id),
      resolvingTime: '2099-12-31',
    };
    const caId = await saved(facaApi.addOrUpdateCaInfo.path, ca);
    // Saved again with the same handler: nobody new, no second message.
    await saved(facaApi.addOrUpdateCaInfo.path, { ...ca, id: caId });

    const notices = await db
      .selectFrom('notifications')
      .leftJoin('outbox', 'outbox.notification_id', 'notifications.id')
      .select(['notifications.kind', 'notifications.link', 'outbox.channel', 'outbox.target'])
      .where('notifications.user_id', '=', handler.id)
      .execute();
    expect(notices).toEqual([
      {
        kind: 'faca-task',
        link: `/faca/editTask?facaInfoId=${facaInfoId}&faInfoId=${faInfoId}&caInfoId=${caId}`,
        channel: 'webhook',
        target: webhook.url,
      },
    ]);
    const delivered = await waitFor(() => webhook.deliveries[0], { what: 'the webhook delivery' });
    expect(delivered.title).toBe('新的FACA任务');
  });
});
