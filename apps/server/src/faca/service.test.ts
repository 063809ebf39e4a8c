import { FACA_STATUS } from '@linewatch/contracts/rules/question-statuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../plugins/auth.ts';
import { createNotifications } from '../notifications/service.ts';
import { factories } from '../test/factories.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createFacaRepository } from './repository.ts';
import { createFacaService } from './service.ts';

const { unhandled, faca, unassigned, overdue } = FACA_STATUS;
const DAY = 86_400_000;

let testDb: TestDb;
beforeAll(async () => {
  testDb = await openTestDb();
});
afterAll(() => testDb?.close());

describe('status flags across the life of a question', () => {
  it('goes unhandled → FACA + unassigned → FACA → overdue (clock) → FACA (task OK)', async () => {
    const { db } = testDb;
    const make = factories(db);
    const line = await make.createLine();
    const sn = await make.createDevice({ line });
    const engineer = await make.createUser({ lines: [line] });
    const worker = await make.createUser({ lines: [line] });
    await db.insertInto('faca_workmanships').values({ name: '焊接' }).execute();
    await db.insertInto('faca_influence_parameters').values({ name: '温度' }).execute();
    let now = Date.parse('2026-11-20T02:00:00Z');
    const service = createFacaService({
      db,
      repo: createFacaRepository(db),
      media: { attach: async () => undefined },
      notifications: createNotifications(db),
      checkMachine: async () => ({
        ok: true,
        device: { lineId: line.id } as never,
      }),
      visibleLineIds: async () => [line.id],
      now: () => now,
      timeZone: 'Asia/Shanghai',
    });
    const as = (u: { id: number; name: string }): SessionUser => ({
      userId: u.id,
      name: u.name,
      nickName: '',
      isAdmin: false,
      keyHash: '',
    });
    const flags = async () => (await service.byId(as(engineer), id)).facaStatus;

    const { id } = await service.saveQuestion(as(engineer), {
      snCode: sn,
      workmanship: '焊接',
      count: 1,
      warningContent: '报警',
      facaDescription: '描述',
      hour: 0,
      minute: 0,
      second: 5,
      influenceParameters: '温度',
      dataFrom: '手动录入',
      facaPicIds: [],
      facaVideoIds: [],
    });
    expect(await flags()).toEqual([unhandled]);

    const fa = await service.saveFa(as(engineer), {
      facaInfoId: id,
      faDescription: '分析',
      faPicIds: [],
      faVideoIds: [],
    });
    // An analysis with no action yet: someone must still be given the work.
    expect(await flags()).toEqual([faca, unassigned]);

    const ca = await service.saveCa(as(engineer), {
      facaInfoId: id,
      faInfoId: fa.id,
      caDescription: '措施',
      handler: String(worker.id),
      resolvingTime: '2026-11-21',
      caStatus: 0,
      caPicIds: [],
      caVideoIds: [],
    });
    expect(await flags()).toEqual([faca]);

    // The due day itself is not overdue; the day after it is.
    now += DAY;
    expect(await flags()).toEqual([faca]);
    now += DAY;
    expect(await flags()).toEqual([faca, overdue]);
    const overduePage = await service.page(as(engineer), {
      facaStatus: '3',
      pageNum: 1,
      pageSize: 5,
    });
    expect(overduePage.content.map((q) => q.id)).toEqual([id]);

    // The handler leaves the company: the CA has nobody to do it.
    const stand = await make.createUser({ lines: [line] });
    await service.saveCa(as(worker), {
      id: ca.id,
      facaInfoId: id,
      faInfoId: fa.id,
      caDescription: '措施',
      handler: `${worker.id},${stand.id}`,
      resolvingTime: '2026-11-21',
      caStatus: 0,
      caPicIds: [],
      caVideoIds: [],
    });
    await db.deleteFrom('users').where('id', 'in', [worker.id, stand.id]).execute();
    expect(await flags()).toEqual([faca, unassigned, overdue]);

    const again = await make.createUser({ lines: [line] });
    await service.saveCa(as(again), {
      id: ca.id,
      facaInfoId: id,
      faInfoId: fa.id,
      caDescription: '措施',
      handler: String(again.id),
      resolvingTime: '2026-11-21',
      caStatus: 0,
      caPicIds: [],
      caVideoIds: [],
    });
    await service.submitTask(as(again), { caId: ca.id, treatment: 1, picIds: [] });
    expect(await flags()).toEqual([faca]);
    const task = (await service.taskPage(as(again), { pageNum: 1, pageSize: 5 })).content[0];
    expect(task).toMatchObject({ caId: ca.id, treatment: 1, taskStatus: 1, overdue: false });
  });
});
