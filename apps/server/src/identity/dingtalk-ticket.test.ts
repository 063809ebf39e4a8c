import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDingtalkFake, type DingtalkFake } from '../test/fakes/dingtalk-fake.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createDingtalkClient, jsapiSignature } from './dingtalk-client.ts';
import { createIdentityRepository } from './repository.ts';

// DingTalk's jsapi_ticket is one per application, and a new fetch may overwrite the ticket other
// pages were signed with: every instance signs with the one ticket stored in the database. Two
// clients (two instances' own code) on one database, against one fake.

const URL_SIGNED = 'http://app.example/login?redirect=%2FdeviceList';

let testDb: TestDb;
let fake: DingtalkFake;
let instances: ReturnType<typeof createDingtalkClient>[];
const name = () => `dingtalk:jsapi_ticket:${fake.env.DINGTALK_APPKEY}`;

beforeAll(async () => {
  [testDb, fake] = await Promise.all([openTestDb(), startDingtalkFake()]);
  const settings = {
    appKey: fake.env.DINGTALK_APPKEY,
    appSecret: fake.env.DINGTALK_APPSECRET,
    agentId: fake.env.DINGTALK_AGENT_ID,
    corpId: fake.env.DINGTALK_CORP_ID,
    apiUrl: fake.env.DINGTALK_API_URL,
  };
  instances = [0, 1].map(() => createDingtalkClient(settings, createIdentityRepository(testDb.db)));
});
afterAll(async () => {
  await Promise.all([testDb?.close(), fake?.close()]);
});

/** Asks every instance at once; true when all signed over the ticket DingTalk holds now. */
const allSignWithCurrent = async () => {
  const configs = await Promise.all(
    [...instances, ...instances].map((i) => i.jsapiConfig(URL_SIGNED)),
  );
  const ticket = fake.currentTicket() ?? '';
  return configs.every(
    (c) =>
      c.signature ===
      jsapiSignature({ ticket, nonceStr: c.nonceStr, timeStamp: c.timeStamp, url: URL_SIGNED }),
  );
};

describe('the DingTalk jsapi_ticket shared by instances', () => {
  it('is fetched by one instance and signed with by all', async () => {
    expect(await allSignWithCurrent()).toBe(true);
    expect(fake.counts.tickets).toBe(1);
    expect(await allSignWithCurrent()).toBe(true);
    expect(fake.counts.tickets).toBe(1);
  });

  it('is renewed once shortly before it expires (a stalled refresh taken over), all signing with the new one', async () => {
    // In its last minute, and the instance that claimed its refresh stalled past its lease.
    await testDb.db
      .updateTable('provider_credentials')
      .set({
        expires_at: new Date(Date.now() + 60_000),
        refreshing_until: new Date(Date.now() - 1_000),
      })
      .where('name', '=', name())
      .execute();
    expect(await allSignWithCurrent()).toBe(true);
    expect(fake.counts.tickets).toBe(2);
  });

  it('is waited for while another instance fetches the next one (the old one may be void)', async () => {
    await testDb.db
      .updateTable('provider_credentials')
      .set({
        expires_at: new Date(Date.now() + 60_000),
        refreshing_until: new Date(Date.now() + 60_000),
      })
      .where('name', '=', name())
      .execute();
    const signing = Promise.all(instances.map((i) => i.jsapiConfig(URL_SIGNED)));
    // … which the other instance stores.
    await testDb.db
      .updateTable('provider_credentials')
      .set({
        value: 'ticket-of-the-other',
        expires_at: new Date(Date.now() + 7_200_000),
        refreshing_until: null,
      })
      .where('name', '=', name())
      .execute();
    for (const c of await signing)
      expect(c.signature).toBe(
        jsapiSignature({
          ticket: 'ticket-of-the-other',
          nonceStr: c.nonceStr,
          timeStamp: c.timeStamp,
          url: URL_SIGNED,
        }),
      );
    expect(fake.counts.tickets).toBe(2);
  });
});
