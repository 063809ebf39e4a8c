import { applicationMessages, VERIFICATION } from '@linewatch/contracts/applications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../foundation/http/envelope.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createApplicationsRepository } from './repository.ts';
import { addressKey, createApplicationsService } from './service.ts';

// Every code is a text message a site pays for: the review sent 40 codes to 40 phones from one
// address in 6.6 s. Codes are counted per address and overall, in the database, so the limits
// hold however many instances answer (the route passing the caller's address:
// applications.test.ts).

let seq = 0;
const newMobile = () =>
  `136${String(Date.now() % 1e5).padStart(5, '0')}${String(seq++).padStart(3, '0')}`;

describe('the address a limit counts', () => {
  it('is the IPv4 address, also when written as IPv6, and the /64 of an IPv6 one', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    // One subscriber gets a whole /64: every address in it is the same sender.
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff:ffff:ffff:9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
  });
});

describe('codes counted in the database', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
  });
  afterAll(() => testDb?.close());
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof DomainError ? error.message : error),
    );
  const sms = { send: async () => undefined, recent: async () => [] };

  it('lets one address have a limited number of codes an hour, whatever the phones', async () => {
    const service = createApplicationsService(createApplicationsRepository(testDb.db), sms);
    for (let i = 0; i < VERIFICATION.maxPerAddressPerHour; i++)
      expect(await refusal(service.sendCode(newMobile(), '203.0.113.9'))).toBeNull();
    expect(await refusal(service.sendCode(newMobile(), '203.0.113.9'))).toBe(
      applicationMessages.sendTooSoon,
    );
    // Written as IPv4-mapped IPv6 it is the same sender; another address is not held back.
    expect(await refusal(service.sendCode(newMobile(), '::ffff:203.0.113.9'))).toBe(
      applicationMessages.sendTooSoon,
    );
    expect(await refusal(service.sendCode(newMobile(), '203.0.113.10'))).toBeNull();
  });

  it('stops sending once the site sent its hourly number, from any address', async () => {
    await testDb.db
      .updateTable('verification_codes')
      .set({ created_at: new Date(Date.now() - 3_600_001) })
      .execute();
    const sent: string[] = [];
    const service = createApplicationsService(
      createApplicationsRepository(testDb.db),
      { send: async (mobile) => void sent.push(mobile), recent: async () => [] },
      { maxPerAddressPerHour: 2, maxPerHourOverall: 3 },
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
