import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifications } from '../notifications/service.ts';
import { emptyFigures, figureColumns } from '../foundation/shared/metrics.ts';
import { factories } from '../test/factories.ts';
import { snapshotAt } from '../test/machines.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { AlertEngine, shortfalls, type FlushedReadings } from './engine.ts';
import { createAlertsRepository } from './repository.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A whole hour, so the shortfall job's window is [T0 − 1 h, T0). */
const T0 = Date.UTC(2026, 2, 9, 2);

let testDb: TestDb;
let userId: number;
let sn: string;

/** The engine as a (re)started server builds it: nothing in memory but its dependencies. */
const engine = () =>
  new AlertEngine({
    db: testDb.db,
    repo: createAlertsRepository(testDb.db),
    notifications: createNotifications(testDb.db),
    deviceOf: () => undefined,
    alarmDescription: () => null,
    caseIds: async () => new Map(),
  });

const notices = () =>
  testDb.db
    .selectFrom('notifications')
    .select(['kind', 'dedupe_key'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

/** An hour of minutes ending at `end`, each running with `perMinute` parts (target 60). */
const hourOfMinutes = async (end: number, perMinute: number) => {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    sn_code: sn,
    minute: new Date(end - HOUR + i * MINUTE),
    ...figureColumns({
      ...emptyFigures(),
      produced: perMinute,
      ok: perMinute,
      firstPassOk: perMinute,
      runningMs: MINUTE,
    }),
  }));
  await testDb.db.insertInto('rollup_minute').values(rows).execute();
};

/** What a flush would hand the engine, written as the flush writes it (status changes first). */
const flush = async (batch: FlushedReadings, judge = engine()) => {
  if (batch.statusChanges.length > 0)
    await testDb.db
      .insertInto('status_changes')
      .values(
        batch.statusChanges.map((c) => ({
          sn_code: c.sn,
          ts: new Date(c.ts),
          status: c.status,
          idle_reason: null,
        })),
      )
      .execute();
  await testDb.db.transaction().execute((tx) => judge.judgeFlush(tx, batch));
};

beforeAll(async () => {
  testDb = await openTestDb();
  const make = factories(testDb.db);
  const line = await make.createLine();
  const gateway = await make.createGateway();
  sn = await make.createDevice({ line, gateway, deviceName: '贴片机', ppmTarget: 60 });
  ({ id: userId } = await make.createUser({ lines: [line] }));
  await testDb.db
    .insertInto('user_follows')
    .values({
      user_id: userId,
      sn_code: sn,
      alarm: true,
      real_time_reminder: true,
      three_parameters: true,
      time_length: 5 * MINUTE,
    })
    .execute();
});
afterAll(() => testDb?.close());

describe('alert engine', () => {
  it('judges a replayed flush after a restart as it did before: nothing new; a stop begun before it still counts; a new stop after running is told again', async () => {
    const t = T0 - 10 * HOUR;
    const raise: FlushedReadings = {
      alarmEdges: [{ sn, code: 'E101', ts: t, active: true }],
      statusChanges: [{ sn, ts: t, status: 3 }],
      snapshots: new Map([[sn, snapshotAt(t, 3, ['E101'])]]),
    };
    await flush(raise);
    // The gateway resends what the crashed server never acknowledged; a new engine judges it.
    await flush(raise, engine());
    expect(await notices()).toEqual([{ kind: 'alarm', dedupe_key: `alarm:${sn}:E101:${t}` }]);
    // Still stopped, past the 5 minutes, seen by yet another (restarted) engine.
    await flush({
      alarmEdges: [],
      statusChanges: [],
      snapshots: new Map([[sn, snapshotAt(t + 6 * MINUTE, 3, ['E101'])]]),
    });
    await flush({
      alarmEdges: [],
      statusChanges: [{ sn, ts: t + 7 * MINUTE, status: 2 }],
      snapshots: new Map([[sn, snapshotAt(t + 7 * MINUTE, 2)]]),
    });
    expect((await notices()).map((n) => n.dedupe_key)).toEqual([
      `alarm:${sn}:E101:${t}`,
      `realTimeReminder:${sn}:${t}`,
    ]);
    // Told: a later stopped reading of the same stop finds no one left to tell (no write).
    expect(
      await createAlertsRepository(testDb.db).overdueStops(testDb.db, [{ sn, at: t + 6 * MINUTE }]),
    ).toEqual([]);
    // Stopped again after running: a new episode, told again once it outlasts 5 minutes.
    await flush({
      alarmEdges: [],
      statusChanges: [{ sn, ts: t + 10 * MINUTE, status: 1 }],
      snapshots: new Map([[sn, snapshotAt(t + 10 * MINUTE, 1)]]),
    });
    await flush({
      alarmEdges: [],
      statusChanges: [],
      snapshots: new Map([[sn, snapshotAt(t + 16 * MINUTE, 1)]]),
    });
    expect((await notices()).map((n) => n.dedupe_key)).toEqual([
      `alarm:${sn}:E101:${t}`,
      `realTimeReminder:${sn}:${t}`,
      `realTimeReminder:${sn}:${t + 10 * MINUTE}`,
    ]);
    await testDb.db.deleteFrom('notifications').execute();
  });

  it('tells a shortfall once, and again only after the machine was back on target', async () => {
    await hourOfMinutes(T0, 30); // PPM 30 against 60
    await engine().checkShortfalls(T0);
    await engine().checkShortfalls(T0 + 30_000); // the same minute, another instance
    await hourOfMinutes(T0 + HOUR, 60); // back on target
    await engine().checkShortfalls(T0 + HOUR);
    await hourOfMinutes(T0 + 2 * HOUR, 20);
    await engine().checkShortfalls(T0 + 2 * HOUR);
    await engine().checkShortfalls(T0 + 2 * HOUR + MINUTE);
    expect(await notices()).toEqual([
      { kind: 'threeParameters', dedupe_key: `threeParameters:${sn}:${T0}` },
      { kind: 'threeParameters', dedupe_key: `threeParameters:${sn}:${T0 + 2 * HOUR}` },
    ]);
  });

  it('names each of PPM, yield and utilisation below its target; no data and no target are never a miss', () => {
    const hour = {
      ...emptyFigures(),
      produced: 100,
      ok: 90,
      ng: 10,
      runningMs: 40 * MINUTE,
      idleMs: 20 * MINUTE,
      // The 40 minutes it ran: PPM is their parts per minute.
      coveredMinutes: 40,
    };
    expect(shortfalls({ figures: hour, ppmTarget: 3, yieldTarget: 95, useRateTarget: 80 })).toEqual(
      ['PPM 2.5 低于目标 3', '良率 90% 低于目标 95%', '稼动率 66.67% 低于目标 80%'],
    );
    expect(shortfalls({ figures: hour, ppmTarget: 2, yieldTarget: 90, useRateTarget: 0 })).toEqual(
      [],
    );
    expect(
      shortfalls({ figures: emptyFigures(), ppmTarget: 60, yieldTarget: 95, useRateTarget: 80 }),
    ).toEqual([]);
  });
});
