import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../foundation/shared/time.ts';
import { factories } from '../../test/factories.ts';
import { openTestDb, type TestDb } from '../../test/test-db.ts';
import { seedOperationLogs } from './history.ts';

const TZ = 'Asia/Shanghai';

describe('the demo operation log', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
  });
  afterAll(() => testDb?.close());

  // The device log opens on today: seeded at 00:23 in the factory, its 14 lines were in
  // yesterday (one every 25 minutes), and the browser journey found an empty first page.
  it.each([
    ['00:23, just after the factory day began', '2026-11-23T16:23:00Z'],
    ['00:00:30, in its first minute', '2026-11-23T16:00:30Z'],
    ['15:00, a day well under way', '2026-11-24T07:00:00Z'],
  ])('puts its 14 lines in the factory day of the seed (%s)', async (_label, at) => {
    const now = Date.parse(at);
    const make = factories(testDb.db);
    const line = await make.createLine();
    const sn = await make.createDevice({ line });
    await testDb.db.transaction().execute((tx) => seedOperationLogs(tx, [sn], now, TZ));
    const rows = await testDb.db
      .selectFrom('operation_logs')
      .select('ts')
      .where('sn_code', '=', sn)
      .execute();
    expect(rows).toHaveLength(14);
    for (const { ts } of rows) {
      expect(dayOf(new Date(ts).getTime(), TZ)).toBe(dayOf(now, TZ));
      expect(new Date(ts).getTime()).toBeLessThanOrEqual(now);
    }
  });
});
