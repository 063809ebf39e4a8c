import type { InboxReply } from '@linewatch/contracts/alerts';
import { alertsApi } from '@linewatch/contracts/alerts-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let sn: string;
let userId: number;
let phone: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const line = await make.createLine();
  sn = await make.createDevice({ line, deviceName: '贴片机' });
  const user = await make.createUser({ lines: [line] });
  userId = user.id;
  await server.linewatch.database.db
    .insertInto('user_follows')
    .values({ user_id: user.id, sn_code: sn, alarm: true })
    .execute();
  phone = api(server.baseUrl, await login(server.baseUrl, user.psnCode, user.password));
});
afterAll(() => server?.close());

describe('an alarm message names its alarm (a FACA question can start from it, issue 11)', () => {
  it('carries the machine and the alarm content; other messages carry none', async () => {
    // What an ingest flush hands the engine when the machine raises E101.
    const { db } = server.linewatch.database;
    await db.transaction().execute((tx) =>
      server.linewatch.app.alerts.engine.judgeFlush(tx, {
        alarmEdges: [{ sn, code: 'E101', ts: Date.now(), active: true }],
        statusChanges: [],
        snapshots: new Map(),
      }),
    );
    await server.linewatch.app.notifications.notify(server.linewatch.database.db, [
      { userId, kind: 'daily', title: '日报', body: '…', dedupeKey: 'daily:test' },
    ]);

    const reply = await phone.get<InboxReply>(alertsApi.inbox.path, { pageSize: 100 });
    const byKind = new Map(reply.body.data.data.map((m) => [m.kind, m.alarm]));
    expect([...byKind.keys()].sort()).toEqual(['alarm', 'daily']);
    expect(byKind.get('alarm')?.snCode).toBe(sn);
    // The code and its description, as the device log shows an alarm's content.
    expect(byKind.get('alarm')?.warningContent).toMatch(/^E101 \S/);
    expect(byKind.get('daily')).toBeNull();
  });
});
