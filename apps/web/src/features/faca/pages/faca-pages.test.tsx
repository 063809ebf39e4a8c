import type { CaInfo, FacaInfo, FaInfo } from '@linewatch/contracts/faca';
import type { ContentPage } from '@linewatch/contracts/rules/paging';
import { facaApi } from '@linewatch/contracts/faca-api';
import { fireEvent, screen, within } from '@testing-library/react';
import { Toast } from 'antd-mobile';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { links, paths } from '../../../shared/paths.ts';
import { fakeApi } from '../../../testing/fake-api.ts';
import { alarmText } from '../../../testing/builders.ts';
import { renderPage } from '../../../testing/render-page.tsx';

const question = (over: Partial<FacaInfo>): FacaInfo => ({
  id: 1,
  snCode: 'LW-S1-005',
  workmanship: '回流焊',
  count: 1,
  warningContent: alarmText('E518'),
  facaDescription: '超温',
  timeLength: 0,
  hour: 0,
  minute: 0,
  second: 0,
  influenceParameters: '温度',
  dataFrom: '手动录入',
  facaStatus: [0],
  picList: [],
  videoList: [],
  updateUser: '王厂长',
  updateTime: '2026-11-22T08:00:00.000Z',
  faInfos: [],
  ...over,
});

const fa = (over: Partial<FaInfo>): FaInfo => ({
  id: 7,
  facaInfoId: 42,
  faNum: 1,
  faDescription: '炉温控制器热电偶松动',
  faPicList: [],
  faVideoList: [],
  updateUser: '王厂长',
  updateTime: '2026-11-22T08:00:00.000Z',
  caInfos: [],
  ...over,
});

const ca = (over: Partial<CaInfo>): CaInfo => ({
  id: 9,
  facaInfoId: 42,
  faInfoId: 7,
  faNum: 1,
  caNum: '1-1',
  caDescription: '清洗吸嘴',
  handler: '5',
  handlerList: [{ userId: 5, name: '李工' }],
  handlerDisplay: '李工',
  resolvingTime: '2026-12-01',
  caStatus: 0,
  ngReason: '',
  overdue: false,
  caPicList: [],
  caVideoList: [],
  resultPicList: [],
  updateUser: '王厂长',
  updateTime: '2026-11-22T08:00:00.000Z',
  ...over,
});

const options = (names: string[]): ContentPage<{ id: number; name: string }> => ({
  content: names.map((name, i) => ({ id: i + 1, name })),
  totalElements: names.length,
});

const facaServer = (questions: FacaInfo[]) =>
  fakeApi()
    .on(facaApi.facaInfoPage, (q) => {
      const hits = questions.filter((x) => !q.snCode || x.snCode.includes(String(q.snCode)));
      const size = Number(q.pageSize);
      const index = Number(q.pageNum);
      return { content: hits.slice((index - 1) * size, index * size), totalElements: hits.length };
    })
    .on(facaApi.getWorkmanshipPage, () => options(['贴片', '回流焊']))
    .on(facaApi.getInfluenceParametersPage, () => options(['温度', '压力']))
    .on(facaApi.addOrUpdateFacaInfo, () => ({ id: 42 }))
    .on(facaApi.getFacaById, () => question({ id: 42 }));

afterEach(() => Toast.clear());

/** The texts of the toasts shown from now on, in order. */
const spyToasts = () => {
  const toasts: string[] = [];
  const spy = vi.spyOn(Toast, 'show').mockImplementation((props) => {
    if (typeof props === 'object' && typeof props.content === 'string') toasts.push(props.content);
    return { close: () => {} };
  });
  onTestFinished(() => spy.mockRestore());
  return toasts;
};

/** The first render of a lazy page loads its chunk: on a busy machine that takes a while. */
const LAZY = { timeout: 15_000 };

/** The questions listed, each a card. */
const cards = () =>
  within(screen.getByRole('list', { name: 'FACA问题' })).queryAllByRole('listitem');
const activeFilter = () => screen.queryByText(/^搜索：/);

describe('FACA list', () => {
  it('pages by 5 and shows several status flags on one card', async () => {
    const many = Array.from({ length: 7 }, (_, i) =>
      question({ id: i + 1, snCode: `SN-${i}`, facaStatus: i === 0 ? [1, 2, 3] : [0] }),
    );
    const { api } = renderPage(paths.faca, { api: facaServer(many) });
    await vi.waitFor(() => expect(cards()).toHaveLength(5), LAZY);
    const first = within(cards()[0]!);
    for (const flag of ['FACA', '未分配', '任务逾期']) expect(first.getByText(flag)).toBeTruthy();
    expect(api.calls(facaApi.facaInfoPage)[0]).toMatchObject({ pageNum: '1', pageSize: '5' });
  });
});

describe('FACA search', () => {
  it('folds the panel after a search and keeps the active conditions in view; 重置 clears them', async () => {
    const many = [question({ id: 1, snCode: 'SN-1' }), question({ id: 2, snCode: 'SN-2' })];
    const { user, api } = renderPage(paths.faca, { api: facaServer(many) });
    await vi.waitFor(() => expect(cards()).toHaveLength(2), LAZY);
    expect(activeFilter()).toBeNull();
    await user.click(screen.getByText('搜索'));
    await user.type(screen.getByPlaceholderText('设备SN码'), 'SN-1');
    await user.click(screen.getByRole('option', { name: 'FACA' }));
    await user.click(screen.getByRole('button', { name: '搜索' }));
    await vi.waitFor(() => expect(cards()).toHaveLength(1));
    expect(api.calls(facaApi.facaInfoPage).at(-1)).toMatchObject({
      snCode: 'SN-1',
      facaStatus: '1',
    });
    expect(activeFilter()?.textContent).toBe('搜索：SN码：SN-1，状态：FACA');
    await user.click(activeFilter()!);
    await user.click(screen.getByRole('button', { name: '重置' }));
    await vi.waitFor(() => expect(cards()).toHaveLength(2));
    expect(activeFilter()).toBeNull();
  }, 30_000);
});

describe('add question', () => {
  it('is prefilled from an alarm and says what is missing, with the spec message', async () => {
    const { user, api } = renderPage(
      links.facaAddQuestion({
        snCode: 'LW-S1-005',
        warningContent: alarmText('E518'),
        count: 3,
        timeLength: (3600 + 120 + 5) * 1000,
      }),
      { api: facaServer([]) },
    );
    const sn = await screen.findByPlaceholderText('请输入设备SN码', {}, LAZY);
    expect(sn).toHaveProperty('value', 'LW-S1-005');
    expect(screen.getByPlaceholderText('请输入报警次数')).toHaveProperty('value', '3');
    expect(screen.getAllByLabelText('分').find((n) => n.tagName === 'INPUT')).toHaveProperty(
      'value',
      '2',
    );
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(document.body.textContent).toContain('请选择工艺类型'));
    expect(api.calls(facaApi.addOrUpdateFacaInfo)).toEqual([]);

    await user.click(await screen.findByText('回流焊'));
    await user.type(screen.getByPlaceholderText('请输入现场描述'), '第3温区超温');
    await user.click(screen.getByText('温度'));
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() =>
      expect(api.calls(facaApi.addOrUpdateFacaInfo)[0]).toMatchObject({
        snCode: 'LW-S1-005',
        workmanship: '回流焊',
        count: 3,
        hour: 1,
        minute: 2,
        second: 5,
        influenceParameters: '温度',
        dataFrom: '报警记录',
      }),
    );
  }, 30_000);
});

describe('CA form', () => {
  it('asks for the corrective action before the related FA, in the spec’s order', async () => {
    const toasts = spyToasts();
    const api = fakeApi()
      .on(facaApi.getFacaById, () => question({ id: 42, faInfos: [fa({})] }))
      .on(facaApi.getHandlerList, () => [{ userId: 5, name: '李工' }])
      .on(facaApi.addOrUpdateCaInfo, () => ({ id: 9 }));
    const { user } = renderPage(links.facaEditFaOrCa(42, 'CA'), { api });
    await screen.findByPlaceholderText('请输入纠正措施', {}, LAZY);
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(toasts).toEqual(['请输入纠正措施']));
    await user.type(screen.getByPlaceholderText('请输入纠正措施'), '清洗吸嘴');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(toasts).toEqual(['请输入纠正措施', '请选择关联FA']));
    expect(api.calls(facaApi.addOrUpdateCaInfo)).toEqual([]);
  }, 30_000);

  it('asks for the NG reason when the status is NG, with the spec message, then saves', async () => {
    const api = fakeApi()
      .on(facaApi.getFacaById, () => question({ id: 42, faInfos: [fa({})] }))
      .on(facaApi.getHandlerList, () => [{ userId: 5, name: '李工' }])
      .on(facaApi.addOrUpdateCaInfo, () => ({ id: 9 }));
    const { user } = renderPage(links.facaEditFaOrCa(42, 'CA'), { api });
    await user.type(await screen.findByPlaceholderText('请输入纠正措施', {}, LAZY), '清洗吸嘴');
    await user.click(screen.getByText('FA1'));
    await user.click(await screen.findByText('李工'));
    fireEvent.change(screen.getByPlaceholderText('请选择纳期'), {
      target: { value: '2026-12-01' },
    });
    await user.click(screen.getByText('NG'));
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(document.body.textContent).toContain('请输入NG原因'));
    expect(api.calls(facaApi.addOrUpdateCaInfo)).toEqual([]);

    await user.type(screen.getByPlaceholderText('请输入NG原因'), '吸嘴变形');
    await user.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() =>
      expect(api.calls(facaApi.addOrUpdateCaInfo)[0]).toMatchObject({
        facaInfoId: 42,
        faInfoId: 7,
        caDescription: '清洗吸嘴',
        handler: '5',
        resolvingTime: '2026-12-01',
        caStatus: 2,
        ngReason: '吸嘴变形',
      }),
    );
  }, 30_000);
});

describe('task detail', () => {
  it('asks for a result, with the spec message, then submits it', async () => {
    const api = fakeApi()
      .on(facaApi.getFacaById, () => question({ id: 42, faInfos: [fa({ caInfos: [ca({})] })] }))
      .on(facaApi.submitTask, () => ({ id: 9 }));
    const { user } = renderPage(links.facaEditTask(42, 7, 9), { api });
    const result = await screen.findByRole('group', { name: '处理结果' }, LAZY);
    await user.click(screen.getByRole('button', { name: '提交' }));
    await vi.waitFor(() => expect(document.body.textContent).toContain('请选择处理结果'));
    expect(api.calls(facaApi.submitTask)).toEqual([]);

    await user.click(within(result).getByRole('option', { name: 'OK' }));
    await user.click(screen.getByRole('button', { name: '提交' }));
    await vi.waitFor(() =>
      expect(api.calls(facaApi.submitTask)).toEqual([
        { caId: 9, treatment: 1, ngReason: '', picIds: [] },
      ]),
    );
  }, 30_000);
});

describe('question info', () => {
  it('sets each unit of the alarm duration apart from the next number', async () => {
    const api = fakeApi().on(facaApi.getFacaById, () =>
      question({ id: 42, hour: 1, minute: 12, second: 30, faInfos: [fa({ caInfos: [ca({})] })] }),
    );
    renderPage(links.facaEditTask(42, 7, 9), { api });
    expect(await screen.findByText('1 时 12 分 30 秒', {}, LAZY)).toBeTruthy();
  }, 30_000);
});
