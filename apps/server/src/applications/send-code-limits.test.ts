import { applicationMessages, VERIFICATION } from '@linewatch/contracts/applications';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../http/envelope.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { createApplicationsRepository } from './repository.ts';
import { addressKey, createApplicationsService } from './service.ts';

// Every code is a text message a site pays for: the review sent 40 codes to 40 phones from one
// address in 6.6 s. Codes are counted per address and overall, in the database, so the limits
// hold however many instances answer.

let seq = 0;
const newMobile = () =>
  `136${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++).padStart(3, '0')}`;

describe('codes per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind one proxy: the address is the one it appends, so the test can be several phones.
    server = await startTestServer({ TRUST_PROXY: '1' });
  });
  afterAll(() => server?.close());

  const sendFrom = async (address: string, mobile = newMobile()) => {
    const response = await fetch(server.baseUrl + applicationsApi.sendCode.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ mobile }),
    });
    return (await response.json()) as { code: string; msg: string };
  };

  it('lets one address have a limited number of codes an hour, whatever the phones', async () => {
    for (let i = 0; i < VERIFICATION.maxPerAddressPerHour; i++)
      expect((await sendFrom('203.0.113.9')).code).toBe('0000');
    expect(await sendFrom('203.0.113.9')).toMatchObject({
      code: '0410',
      msg: applicationMessages.sendTooSoon,
    });
    // The same phone from another address is not held back by the first address.
    expect((await sendFrom('203.0.113.10')).code).toBe('0000');
  });
});

describe('the address a limit counts', () => {
  it('is the IPv4 address, also when written as IPv6, and the /64 of an IPv6 one', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    // One subscriber gets a whole /64: every address in it is the same sender.
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});

describe('codes overall', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
  });
  afterAll(() => testDb?.close());

  it('stops sending once the site sent its hourly number, from any address', async () => {
    const sent: string[] = [];
    const service = createApplicationsService(
      createApplicationsRepository(testDb.db),
      { send: async (mobile) => void sent.push(mobile), recent: async () => [] },
      { maxPerAddressPerHour: 2, maxPerHourOverall: 3 },
    );
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => (error instanceof DomainError ? error.message : error),
      );
    await service.sendCode(newMobile(), '198.51.100.1');
    await service.sendCode(newMobile(), '198.51.100.1');
    expect(await refusal(service.sendCode(newMobile(), '198.51.100.1'))).toBe(
      applicationMessages.sendTooSoon,
    );
    await service.sendCode(newMobile(), '198.51.100.2');
    expect(await refusal(service.sendCode(newMobile(), '198.51.100.3'))).toBe(
      applicationMessages.sendLimitReached,
    );
    expect(sent).toHaveLength(3);
    // An hour on, the site sends again.
    await testDb.db
      .updateTable('verification_codes')
      .set({ created_at: new Date(Date.now() - 3_600_001) })
      .execute();
    expect(await refusal(service.sendCode(newMobile(), '198.51.100.3'))).toBeNull();
  });
});
