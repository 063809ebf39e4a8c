import type {
  FollowListReply,
  FollowSettings,
  SnCodesReply,
} from '@linewatch/contracts/subscriptions';
import { deviceMessages } from '@linewatch/contracts/devices';
import { subscriptionMessages } from '@linewatch/contracts/subscriptions';
import { subscriptionsApi } from '@linewatch/contracts/subscriptions-api';
import type { DictItem } from '@linewatch/contracts/subscriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories, type TestGroup } from '../test/factories.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
let user: ReturnType<typeof api>;
let userId: number;
let group: TestGroup;
let visible: string[];
let hidden: string[];

beforeAll(async () => {
  server = await startTestServer();
  const make = factories(server.linewatch);
  const line = await make.createLine();
  const hiddenLine = await make.createLine();
  group = await make.createGroup(line);
  visible = await make.createDevices(25, { line, group, ppmTarget: 60 });
  hidden = await make.createDevices(2, {
    line: hiddenLine,
    group: await make.createGroup(hiddenLine),
  });
  const u = await make.createUser({ lines: [line] });
  userId = u.id;
  user = api(server.baseUrl, await login(server.baseUrl, u.psnCode, u.password));
});
afterAll(() => server?.close());

const settings = async (sn: string) => {
  const reply = await user.get<FollowSettings>(subscriptionsApi.followSettings.path, {
    snCode: sn,
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data;
};

const followsInDb = () =>
  server.linewatch.database.db
    .selectFrom('user_follows')
    .select(['sn_code', 'alarm', 'daily', 'week', 'time_length'])
    .where('user_id', '=', userId)
    .orderBy('sn_code')
    .execute();

describe('subscriptions', () => {
  it('follows a batch with its settings, reads them back and updates them', async () => {
    const sns = visible.slice(0, 3);
    const reply = await user.post(subscriptionsApi.addFollow.path, {
      snCode: sns.join(','),
      alarm: true,
      realTimeReminder: true,
      statistics: true,
      daily: true,
      timeLength: 3_600_000 + 25 * 60_000,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toEqual({ count: 3 });
    expect(await settings(sns[1]!)).toMatchObject({
      snCode: sns[1],
      isFollow: true,
      alarm: true,
      realTimeReminder: true,
      threeParameters: false,
      daily: true,
      week: false,
      timeLength: 5_100_000,
    });
    await user.post(subscriptionsApi.addFollow.path, { snCode: sns[1], week: true });
    expect(await settings(sns[1]!)).toMatchObject({
      alarm: false,
      daily: false,
      week: true,
      timeLength: 0,
    });
    expect(await settings(visible[10]!)).toMatchObject({ isFollow: false, userFollowSnId: null });
  });

  it.each([
    [{ snCode: '', alarm: true }, subscriptionMessages.selectMachine],
    [{ alarm: true }, subscriptionMessages.selectMachine],
    [
      { snCode: 'X', statistics: true, daily: false, week: false },
      subscriptionMessages.needReportType,
    ],
    [{ snCode: 'X', timeLength: 7_200_000 }, subscriptionMessages.badTimeLength],
    [{ snCode: 'X', timeLength: 60_000 }, subscriptionMessages.badTimeLength],
    [{ snCode: 'X', timeLength: -300_000 }, subscriptionMessages.badTimeLength],
  ])('refuses %j with its message and changes nothing', async (body, message) => {
    const before = await followsInDb();
    const reply = await user.post(subscriptionsApi.addFollow.path, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: '0400', msg: message });
    expect(await followsInDb()).toEqual(before);
  });

  it('refuses a batch holding a machine of a line the user was not granted (0403), whole', async () => {
    const before = await followsInDb();
    for (const path of [subscriptionsApi.addFollow.path, subscriptionsApi.cancelFollow.path]) {
      const reply = await user.post(path, { snCode: `${visible[5]},${hidden[0]}`, alarm: true });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe('0403');
    }
    const read = await user.get(subscriptionsApi.followSettings.path, { snCode: hidden[0] });
    expect(read.body.code).toBe('0403');
    expect(await followsInDb()).toEqual(before);
  });

  it('lists the visible machines 20 a page with totalNum, follow ids and the subscribed tag', async () => {
    const first = await user.get<FollowListReply>(subscriptionsApi.list.path, { pageNumber: 1 });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.totalNum).toBe(25);
    expect(first.body.data.data).toHaveLength(20);
    const second = await user.get<FollowListReply>(subscriptionsApi.list.path, { pageNumber: 2 });
    const rows = [...first.body.data.data, ...second.body.data.data];
    expect(new Set(rows.map((r) => r.snCode))).toEqual(new Set(visible));
    expect(
      rows
        .filter((r) => r.isFollow)
        .map((r) => r.snCode)
        .sort(),
    ).toEqual(visible.slice(0, 3));
    expect(rows.find((r) => r.snCode === visible[0])).toMatchObject({
      ppmTarget: 60,
      produceGroup: group.name,
    });
    const followed = await user.get<FollowListReply>(subscriptionsApi.list.path, { isFollow: '1' });
    expect(followed.body.data.totalNum).toBe(3);
  });

  it('gives the product groups and the SN codes of the user’s lines only, in chunks of 20', async () => {
    const groups = await user.get<DictItem[]>(subscriptionsApi.processSections.path);
    expect(groups.body.data).toEqual([{ label: group.name, value: group.name }]);
    const chunk1 = await user.get<SnCodesReply>(subscriptionsApi.snCodes.path, { pageIndex: 1 });
    const chunk2 = await user.get<SnCodesReply>(subscriptionsApi.snCodes.path, { pageIndex: 2 });
    expect(chunk1.body.data.data).toHaveLength(20);
    expect(chunk1.body.data.totalNum).toBe(25);
    expect([...chunk1.body.data.data, ...chunk2.body.data.data].map((d) => d.value)).toEqual(
      [...visible].sort(),
    );
    const search = await user.get<SnCodesReply>(subscriptionsApi.snCodes.path, {
      nameTag: hidden[0],
    });
    expect(search.body.data).toEqual({ data: [], totalNum: 0 });
  });

  it('cancels one, by id and by ids, only the user’s own', async () => {
    await user.post(subscriptionsApi.addFollow.path, {
      snCode: visible.slice(5, 10).join(','),
      alarm: true,
    });
    expect(
      (await user.post(subscriptionsApi.cancelFollow.path, { snCode: visible[5] })).body.data,
    ).toEqual({ count: 1 });
    expect(
      (
        await user.post(subscriptionsApi.delFollows.path, {
          snCodes: `${visible[6]},${visible[7]}`,
        })
      ).body.data,
    ).toEqual({ count: 2 });
    const id8 = (await settings(visible[8]!)).userFollowSnId!;
    const id9 = (await settings(visible[9]!)).userFollowSnId!;
    expect((await user.post(subscriptionsApi.deleteOne.path, { id: id8 })).body.data).toEqual({
      count: 1,
    });
    // A delete whose target is gone (a stale page, another user's id) says 删除有误，请重新进入页面
    // 操作 and deletes nothing, not even the ids that were there (docs/product.md section 8).
    const gone = await user.post(subscriptionsApi.deleteByIds.path, { ids: `${id9},999999` });
    expect(gone.body).toMatchObject({ code: '0404', msg: subscriptionMessages.deleteGone });
    expect((await settings(visible[9]!)).isFollow).toBe(true);
    const goneOne = await user.post(subscriptionsApi.deleteOne.path, { id: id8 });
    expect(goneOne.body).toMatchObject({ code: '0404', msg: subscriptionMessages.deleteGone });
    expect(
      (await user.post(subscriptionsApi.deleteByIds.path, { ids: `${id9}` })).body.data,
    ).toEqual({ count: 1 });
    // delFollows of machines none of which is followed any more: the same words.
    const stale = await user.post(subscriptionsApi.delFollows.path, {
      snCodes: `${visible[6]},${visible[7]}`,
    });
    expect(stale.body).toMatchObject({ code: '0404', msg: subscriptionMessages.deleteGone });
    const bad = await user.post(subscriptionsApi.deleteByIds.path, { ids: 'a,b' });
    expect(bad.body).toMatchObject({ code: '0400', msg: subscriptionMessages.badIds });
    expect((await followsInDb()).map((r) => r.sn_code)).toEqual(visible.slice(0, 3));
  });

  it('gives the user dictionary: the machines this user follows and sees, searchable by nameTag', async () => {
    const dict = async (query: Record<string, string> = {}) => {
      const reply = await user.get<DictItem[]>(subscriptionsApi.userDict.path, query);
      expect(reply.status, reply.text).toBe(200);
      return reply.body.data;
    };
    // Another user's follow and a follow on a line this user no longer sees are not in it.
    const make = factories(server.linewatch);
    const other = await make.createUser({ lines: [] });
    await server.linewatch.database.db
      .insertInto('user_follows')
      .values([
        { user_id: other.id, sn_code: visible[12]! },
        { user_id: userId, sn_code: hidden[1]! },
      ])
      .execute();
    expect(await dict()).toEqual(
      [...visible.slice(0, 3)].sort().map((sn) => ({ label: sn, value: sn })),
    );
    expect(await dict({ nameTag: visible[1]! })).toEqual([
      { label: visible[1], value: visible[1] },
    ]);
    expect(await dict({ nameTag: visible[12]! })).toEqual([]);
    const tooLong = await user.get(subscriptionsApi.userDict.path, { nameTag: '长'.repeat(65) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: '0400', msg: deviceMessages.textTooLong });
    const anonymous = await api(server.baseUrl).get(subscriptionsApi.userDict.path);
    expect(anonymous.body.code).toBe('0405');
  });
});
