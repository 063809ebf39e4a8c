import { facaApi } from '@linewatch/contracts/faca-api';
import {
  type CaInfoBody,
  type FacaInfo,
  type FacaInfoBody,
  type Task,
} from '@linewatch/contracts/faca';
import { facaMessages } from '@linewatch/contracts/faca-labels';
import type { ContentPage } from '@linewatch/contracts/rules/paging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../test/http.ts';
import { factories, type TestLine, type TestUser } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let sn: string;
let otherSn: string;
let quality: ReturnType<typeof api>;
let handlerApi: ReturnType<typeof api>;
let outsider: ReturnType<typeof api>;
let handler: TestUser;
let qualityUser: TestUser;
let snLine: TestLine;

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const line = await make.createLine();
  snLine = line;
  const otherLine = await make.createLine();
  sn = await make.createDevice({ line });
  otherSn = await make.createDevice({ line: otherLine });
  qualityUser = await make.createUser({ lines: [line] });
  handler = await make.createUser({ lines: [line], name: '处理人甲' });
  const other = await make.createUser({ lines: [otherLine] });
  const db = server.linewatch.database.db;
  await db
    .insertInto('faca_workmanships')
    .values([{ name: '焊接' }, { name: '贴片' }])
    .execute();
  await db
    .insertInto('faca_influence_parameters')
    .values([{ name: '温度' }, { name: '压力' }])
    .execute();
  quality = api(
    server.baseUrl,
    await login(server.baseUrl, qualityUser.psnCode, qualityUser.password),
  );
  handlerApi = api(server.baseUrl, await login(server.baseUrl, handler.psnCode, handler.password));
  outsider = api(server.baseUrl, await login(server.baseUrl, other.psnCode, other.password));
});
afterAll(() => server?.close());

const question = (over: Partial<FacaInfoBody> = {}): FacaInfoBody => ({
  snCode: sn,
  workmanship: '焊接',
  count: 1,
  warningContent: 'E518 温度过高',
  facaDescription: '回流焊温区3超温',
  hour: 1,
  minute: 2,
  second: 3,
  influenceParameters: '温度,压力',
  ...over,
});

const saveQuestion = async (over: Partial<FacaInfoBody> = {}) => {
  const reply = await quality.post<{ id: number }>(
    facaApi.addOrUpdateFacaInfo.path,
    question(over),
  );
  expect(reply.body).toMatchObject({ code: '0000', msg: '保存成功' });
  return reply.body.data.id;
};

const saveFa = async (facaInfoId: number) => {
  const reply = await quality.post<{ id: number }>(facaApi.addOrUpdateFaInfo.path, {
    facaInfoId,
    faDescription: '温控模块老化',
  });
  expect(reply.body.code).toBe('0000');
  return reply.body.data.id;
};

const ca = (facaInfoId: number, faInfoId: number, over: Partial<CaInfoBody> = {}): CaInfoBody => ({
  facaInfoId,
  faInfoId,
  caDescription: '更换温控模块',
  handler: String(handler.id),
  resolvingTime: '2099-01-01',
  ...over,
});

const byId = async (client: ReturnType<typeof api>, id: number) =>
  client.get<FacaInfo>(facaApi.getFacaById.path, { facaInfoId: id });

describe('the question form', () => {
  it('stores the duration as milliseconds and keeps who changed it and when', async () => {
    const id = await saveQuestion();
    const reply = await byId(quality, id);
    expect(reply.body.data).toMatchObject({
      snCode: sn,
      timeLength: (3600 + 2 * 60 + 3) * 1000,
      hour: 1,
      minute: 2,
      second: 3,
      count: 1,
      dataFrom: '手动录入',
      influenceParameters: '温度,压力',
      updateUser: qualityUser.name,
      facaStatus: [0],
    });
    expect(Date.parse(reply.body.data.updateTime)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each([
    ['snCode', { snCode: '' }, facaMessages.snCode],
    ['snCode (no such machine)', { snCode: 'NO-SUCH-SN' }, facaMessages.snCode],
    ['workmanship', { workmanship: '' }, facaMessages.workmanship],
    ['workmanship (not a process type)', { workmanship: '喷涂' }, facaMessages.workmanship],
    ['count', { count: '' as unknown as number }, facaMessages.count],
    ['count (not digits)', { count: '1.5' as unknown as number }, facaMessages.count],
    ['count (zero)', { count: 0 }, facaMessages.count],
    ['warningContent', { warningContent: '  ' }, facaMessages.warningContent],
    ['facaDescription', { facaDescription: '' }, facaMessages.facaDescription],
    ['hour (not digits)', { hour: 'x' as unknown as number }, facaMessages.duration],
    ['minute (over 59)', { minute: 60 }, facaMessages.duration],
    ['influenceParameters', { influenceParameters: '' }, facaMessages.influenceParameters],
    [
      'influenceParameters (unknown)',
      { influenceParameters: '湿度' },
      facaMessages.influenceParameters,
    ],
    [
      'facaPicIds (10 pictures)',
      { facaPicIds: Array.from({ length: 10 }, (_, i) => i.toString(16).padStart(32, '0')) },
      facaMessages.tooManyPictures,
    ],
    ['facaPicIds (not an upload)', { facaPicIds: ['0'.repeat(32)] }, facaMessages.badMedia],
  ])('refuses a bad %s with its message and saves nothing', async (_name, over, message) => {
    const before = await quality.get<ContentPage<FacaInfo>>(facaApi.facaInfoPage.path, {
      snCode: sn,
    });
    const reply = await quality.post(facaApi.addOrUpdateFacaInfo.path, question(over));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: '0400', msg: message });
    const after = await quality.get<ContentPage<FacaInfo>>(facaApi.facaInfoPage.path, {
      snCode: sn,
    });
    expect(after.body.data.totalElements).toBe(before.body.data.totalElements);
  });

  it('refuses an FA without analysis and a CA missing any required field', async () => {
    const id = await saveQuestion();
    const fa = await quality.post(facaApi.addOrUpdateFaInfo.path, {
      facaInfoId: id,
      faDescription: '',
    });
    expect(fa.body).toMatchObject({ code: '0400', msg: facaMessages.faDescription });
    const faId = await saveFa(id);
    for (const [over, message] of [
      [{ caDescription: '' }, facaMessages.caDescription],
      [{ faInfoId: '' as unknown as number }, facaMessages.faInfoId],
      [{ handler: '' }, facaMessages.handler],
      [{ resolvingTime: '' }, facaMessages.resolvingTime],
      [{ resolvingTime: '2026-02-30' }, facaMessages.resolvingTime],
    ] as const) {
      const reply = await quality.post(facaApi.addOrUpdateCaInfo.path, ca(id, faId, over));
      expect(reply.body, message).toMatchObject({ code: '0400', msg: message });
    }
    // The NG reason is checked for the handler, who alone may set a status.
    const ng = await handlerApi.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { caStatus: 2, ngReason: '' }),
    );
    expect(ng.body).toMatchObject({ code: '0400', msg: facaMessages.ngReason });
    // An FA of another question is no related FA.
    const elsewhere = await saveFa(await saveQuestion());
    const wrongFa = await quality.post(facaApi.addOrUpdateCaInfo.path, ca(id, elsewhere));
    expect(wrongFa.body).toMatchObject({ code: '0400', msg: facaMessages.faInfoId });
    // A handler must be able to see the machine.
    const hidden = await quality.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { handler: '999999' }),
    );
    expect(hidden.body).toMatchObject({ code: '0400', msg: facaMessages.handlerCannotSee });
    expect((await byId(quality, id)).body.data.faInfos[0]!.caInfos).toEqual([]);
  });
});

describe('FA, CA and the task', () => {
  it('numbers CA as faNum.sequence, names the handlers, notifies them and lists their task', async () => {
    const id = await saveQuestion();
    const faId = await saveFa(id);
    const first = await quality.post<{ id: number }>(facaApi.addOrUpdateCaInfo.path, ca(id, faId));
    const second = await quality.post<{ id: number }>(facaApi.addOrUpdateCaInfo.path, ca(id, faId));
    const view = (await byId(quality, id)).body.data;
    expect(view.faInfos[0]!.caInfos.map((c) => c.caNum)).toEqual(['1.1', '1.2']);
    expect(view.faInfos[0]!.caInfos[0]).toMatchObject({
      handler: String(handler.id),
      handlerDisplay: '处理人甲',
      caStatus: 0,
    });
    const notices = await server.linewatch.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', handler.id)
      .where('kind', '=', 'faca-task')
      .execute();
    expect(notices.map((n) => n.link)).toContain(
      `/faca/editTask?facaInfoId=${id}&faInfoId=${faId}&caInfoId=${first.body.data.id}`,
    );
    const tasks = await handlerApi.get<ContentPage<Task>>(facaApi.taskPage.path, {
      snCode: sn,
      taskStatus: '0',
    });
    expect(tasks.body.data.content.map((t) => t.caId)).toEqual(
      expect.arrayContaining([first.body.data.id, second.body.data.id]),
    );
    const ids = await handlerApi.get(facaApi.getFacaInfoIds.path, { caId: second.body.data.id });
    expect(ids.body.data).toEqual({ FaCaId: id, FaId: faId, CaId: second.body.data.id });
  });

  it('lets only a handler set the result; NG needs a reason and completes the task', async () => {
    const id = await saveQuestion();
    const faId = await saveFa(id);
    const caId = (await quality.post<{ id: number }>(facaApi.addOrUpdateCaInfo.path, ca(id, faId)))
      .body.data.id;
    const byQuality = await quality.post(facaApi.submitTask.path, { caId, treatment: 1 });
    expect(byQuality.status).toBe(403);
    expect(byQuality.body).toMatchObject({ code: '0403', msg: facaMessages.onlyHandler });
    const statusByQuality = await quality.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, caStatus: 1 }),
    );
    expect(statusByQuality.body).toMatchObject({ code: '0403', msg: facaMessages.onlyHandler });
    const noReason = await handlerApi.post(facaApi.submitTask.path, { caId, treatment: 2 });
    expect(noReason.body).toMatchObject({ code: '0400', msg: facaMessages.ngReason });
    const noTreatment = await handlerApi.post(facaApi.submitTask.path, { caId, treatment: 0 });
    expect(noTreatment.body).toMatchObject({ code: '0400', msg: facaMessages.treatment });
    const ng = await handlerApi.post(facaApi.submitTask.path, {
      caId,
      treatment: 2,
      ngReason: '备件未到',
    });
    expect(ng.body.code).toBe('0000');
    const done = (await byId(quality, id)).body.data.faInfos[0]!.caInfos[0]!;
    expect(done).toMatchObject({ caStatus: 2, ngReason: '备件未到', updateUser: handler.name });
    const completed = await handlerApi.get<ContentPage<Task>>(facaApi.taskPage.path, {
      taskStatus: '1',
      treatment: '2',
    });
    expect(completed.body.data.content).toContainEqual(
      expect.objectContaining({ caId, taskStatus: 1, treatment: 2 }),
    );
  });
});

describe('who may give a CA its result and its handlers', () => {
  it('refuses a bystander who names themselves handler and sets the result in one save', async () => {
    const make = factories(server.linewatch);
    const bystander = await make.createUser({ lines: [snLine] });
    const admin = await make.createUser({ isAdmin: true });
    const as = async (u: TestUser) =>
      api(server.baseUrl, await login(server.baseUrl, u.psnCode, u.password));
    const bystanderApi = await as(bystander);
    const id = await saveQuestion();
    const faId = await saveFa(id);
    const caId = (await quality.post<{ id: number }>(facaApi.addOrUpdateCaInfo.path, ca(id, faId)))
      .body.data.id;
    const current = async () => (await byId(quality, id)).body.data.faInfos[0]!.caInfos[0]!;

    // The takeover in one save: the handlers the request names are not who may give a result.
    const takeover = await bystanderApi.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, handler: String(bystander.id), caStatus: 1 }),
    );
    expect(takeover.body).toMatchObject({ code: '0403', msg: facaMessages.onlyHandler });
    // Nor in two: changing the handlers is the handlers', the assigner's or an admin's.
    const reassign = await bystanderApi.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, handler: String(bystander.id) }),
    );
    expect(reassign.body).toMatchObject({ code: '0403', msg: facaMessages.onlyAssigner });
    expect(await current()).toMatchObject({ handler: String(handler.id), caStatus: 0 });
    // Anyone who sees the question may still improve the action's wording.
    const wording = await bystanderApi.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, caDescription: '更换温控模块并校准' }),
    );
    expect(wording.body.code).toBe('0000');

    // The handler hands the task over and may give the result in that save.
    const handOver = await handlerApi.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, handler: `${handler.id},${bystander.id}`, caStatus: 1 }),
    );
    expect(handOver.body.code).toBe('0000');
    // The one who assigned it may reassign it.
    const back = await quality.post(
      facaApi.addOrUpdateCaInfo.path,
      ca(id, faId, { id: caId, handler: String(handler.id), caStatus: 1 }),
    );
    expect(back.body.code).toBe('0000');
    expect(await current()).toMatchObject({ handler: String(handler.id), caStatus: 1 });
    // The bystander is no handler any more: no result, by the form or the task page.
    const late = await bystanderApi.post(facaApi.submitTask.path, {
      caId,
      treatment: 2,
      ngReason: '抢答',
    });
    expect(late.body).toMatchObject({ code: '0403', msg: facaMessages.onlyHandler });
    // An admin may give a result (someone has to when the handler cannot).
    const byAdmin = await (
      await as(admin)
    ).post(facaApi.submitTask.path, {
      caId,
      treatment: 2,
      ngReason: '备件未到',
    });
    expect(byAdmin.body.code).toBe('0000');
    expect(await current()).toMatchObject({ caStatus: 2, ngReason: '备件未到' });
  });
});

describe('line visibility', () => {
  it("keeps another line's user out: 0403 on reads and writes, nothing in lists", async () => {
    const id = await saveQuestion();
    const faId = await saveFa(id);
    const caId = (await quality.post<{ id: number }>(facaApi.addOrUpdateCaInfo.path, ca(id, faId)))
      .body.data.id;
    for (const reply of [
      await byId(outsider, id),
      await outsider.post(facaApi.addOrUpdateFacaInfo.path, question()),
      await outsider.post(facaApi.addOrUpdateFacaInfo.path, question({ id, snCode: otherSn })),
      await outsider.post(facaApi.addOrUpdateFaInfo.path, { facaInfoId: id, faDescription: 'x' }),
      await outsider.post(facaApi.addOrUpdateCaInfo.path, ca(id, faId)),
      await outsider.get(facaApi.getFacaInfoIds.path, { caId }),
      await outsider.get(facaApi.getHandlerList.path, { snCode: sn }),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe('0403');
    }
    const list = await outsider.get<ContentPage<FacaInfo>>(facaApi.facaInfoPage.path, {});
    expect(list.body.data.content.map((q) => q.snCode)).not.toContain(sn);
    const handlers = await quality.get<{ userId: number }[]>(facaApi.getHandlerList.path, {
      snCode: sn,
    });
    expect(handlers.body.data.map((h) => h.userId)).toEqual(
      expect.arrayContaining([handler.id, qualityUser.id]),
    );
  });

  it('searches by SN, alarm content, process type and status flag', async () => {
    const id = await saveQuestion({ warningContent: '独特报警XYZ', workmanship: '贴片' });
    const found = await quality.get<ContentPage<FacaInfo>>(facaApi.facaInfoPage.path, {
      snCode: sn.slice(-6),
      warningContent: 'XYZ',
      workmanship: '贴片',
      facaStatus: '0',
      pageSize: 5,
      pageNum: 1,
    });
    expect(found.body.data.content.map((q) => q.id)).toEqual([id]);
    await saveFa(id);
    const unhandled = await quality.get<ContentPage<FacaInfo>>(facaApi.facaInfoPage.path, {
      warningContent: 'XYZ',
      facaStatus: '0',
    });
    expect(unhandled.body.data.totalElements).toBe(0);
  });
});
