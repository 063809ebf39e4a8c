import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createNotifications } from './service.ts';

describe('notifications', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
  });
  afterAll(() => testDb.close());

  it('writes a notice once per user and event, in the caller’s transaction', async () => {
    const { db } = testDb;
    const { id: userId } = await db
      .insertInto('users')
      .values({ psn_code: 'n-1', name: '通知', password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const notifications = createNotifications(db);
    const notice = {
      userId,
      kind: 'alarm',
      title: 'LW-S1-002 报警',
      body: 'E101 送料超时',
      link: '/faultAlarm?casesId=1',
      dedupeKey: 'alarm:LW-S1-002:E101:1',
    };

    await expect(
      db.transaction().execute(async (tx) => {
        await notifications.notify(tx, [notice]);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await db.selectFrom('notifications').selectAll().execute()).toEqual([]);

    expect(await notifications.notify(db, [notice])).toBe(1);
    expect(await notifications.notify(db, [notice, { ...notice, dedupeKey: 'alarm:2' }])).toBe(1);
    const rows = await db
      .selectFrom('notifications')
      .select(['kind', 'title', 'link', 'dedupe_key', 'read_at'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        kind: 'alarm',
        title: 'LW-S1-002 报警',
        link: '/faultAlarm?casesId=1',
        dedupe_key: 'alarm:LW-S1-002:E101:1',
        read_at: null,
      },
      expect.objectContaining({ dedupe_key: 'alarm:2' }),
    ]);
  });
});
