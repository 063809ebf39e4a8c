import {
  adminMessages,
  type AdminApplication,
  type AdminLine,
  type AdminMachine,
  type AdminUser,
  type AuditEntry,
} from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { messages as adminGateMessages } from '@linewatch/contracts/envelope';
import { listMessages } from '@linewatch/contracts/list-messages';
import { applicationsApi } from '@linewatch/contracts/applications-api';
import { fireEvent, screen } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { Dialog, Toast } from 'antd-mobile';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../../shared/paths.ts';
import { answerDialog, dialogsNow, newDialog } from '../../../testing/dialogs.ts';
import { failure, fakeApi } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';

// The admin pages against a fake server: what they show, what they send, and what they say when
// the server refuses. Each sits behind the admin gate, which asks the server first.

vi.setConfig({ testTimeout: 30_000 });
const FIRST_PAINT = { timeout: 20_000 };

const line = (overrides: Partial<AdminLine> = {}): AdminLine => ({
  id: 1,
  name: 'SMT一线',
  sort: 0,
  machineCount: 2,
  groups: [{ id: 11, name: '贴片', machineCount: 2 }],
  ...overrides,
});
const LINES = [line(), line({ id: 2, name: '组装线', machineCount: 0, groups: [] })];

const user = (overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: 5,
  psnCode: 'E1001',
  name: '张三',
  nickName: '',
  mobile: null,
  isAdmin: false,
  disabled: false,
  lineIds: [1, 2],
  createdAt: '2026-11-20T08:00:00.000Z',
  ...overrides,
});

const machine = (overrides: Partial<AdminMachine> = {}): AdminMachine => ({
  snCode: 'LW-1',
  lineId: 1,
  lineName: 'SMT一线',
  groupId: 11,
  groupName: '贴片',
  deviceName: '贴片机',
  nickSnCode: '',
  nickDeviceName: '',
  machineName: '',
  projectName: '',
  country: '中国',
  province: '广东省',
  city: '深圳市',
  ppmTarget: 60,
  yieldTarget: 98,
  superiorityRateTarget: 0,
  useRateTarget: 0,
  produceTargetNumber: 0,
  ngTargetNumber: 0,
  capacityTarget: 0,
  maxPpm: null,
  plcModel: '',
  gatewayId: null,
  ...overrides,
});

/** An admin's server: the gate answers yes, the lines are there. */
const adminApiFake = () =>
  fakeApi()
    .on(adminApi.access, () => ({ isAdmin: true }))
    .on(adminApi.lines, () => LINES);

// jsdom has no pointer capture; antd's swipe and popup gestures ask for it.
beforeAll(() => {
  Element.prototype.setPointerCapture ??= () => {};
  Element.prototype.releasePointerCapture ??= () => {};
});

let toasts: string[];
beforeEach(() => {
  toasts = [];
  vi.spyOn(Toast, 'show').mockImplementation((props) => {
    if (typeof props === 'object' && typeof props.content === 'string') toasts.push(props.content);
    return { close: () => {} };
  });
});
afterEach(() => {
  vi.mocked(Toast.show).mockRestore();
  Dialog.clear();
});

/**
 * Renders an admin page; taps do not wait for antd's popups to finish fading in (pointer-events
 * none meanwhile), as a person's tap would not.
 */
const open = (path: string, api: ReturnType<typeof fakeApi>) => {
  const rendered = renderPage(path, { api });
  return {
    ...rendered,
    user: userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never }),
  };
};

/** The last dialog's 确定 (a fading one may still be there; it ignores pointer events). */
const confirmDialog = () =>
  fireEvent.click(screen.getAllByRole('button', { name: '确定' }).at(-1)!);

describe('admin gate and home', () => {
  it('shows 无权查看 to a non-admin and asks nothing else', async () => {
    const api = fakeApi().on(adminApi.access, () => ({ isAdmin: false }));
    open(paths.adminUsers, api);
    expect(await screen.findByText(adminGateMessages.forbidden, {}, FIRST_PAINT)).toBeTruthy();
    expect(api.calls(adminApi.users)).toHaveLength(0);
  });

  it('links every admin page, the gateways included, and counts pending applications', async () => {
    const api = adminApiFake().on(adminApi.applications, () => [
      { ...application(), status: 'pending' as const },
    ]);
    const { router, user: person } = open(paths.admin, api);
    await screen.findByRole('heading', { name: '管理' }, FIRST_PAINT);
    // The count comes with the applications' answer, which may follow the home's first paint.
    expect(await screen.findByText('1 待审核')).toBeTruthy();
    await person.click(screen.getByText('网关管理'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(paths.adminGateways));
  });
});

describe('users page', () => {
  it('lists users with their lines and marks, and creates one with the form', async () => {
    const api = adminApiFake()
      .on(adminApi.users, () => [
        user(),
        user({ id: 6, psnCode: 'A1', name: '李四', isAdmin: true, disabled: true, lineIds: [] }),
      ])
      .on(adminApi.createUser, (body) => user({ id: 7, psnCode: String(body?.psnCode) }));
    const { user: person } = open(paths.adminUsers, api);
    // Rows by their words: only 李四 (A1) is an administrator, disabled and without lines.
    await screen.findByText('张三', {}, FIRST_PAINT);
    await screen.findByText('SMT一线、组装线');
    for (const mark of ['管理员', '已停用', '未授权产线'])
      expect(screen.getByText(mark)).toBeTruthy();

    await person.click(screen.getByRole('button', { name: '新建' }));
    await person.type(await screen.findByPlaceholderText('请输入工号'), 'E2002');
    await person.type(screen.getByPlaceholderText('请输入姓名'), '王五');
    await person.type(screen.getByPlaceholderText('至少8位'), 'long-enough-1');
    await person.click(screen.getByRole('option', { name: '组装线' }));
    await person.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(api.calls(adminApi.createUser)).toHaveLength(1));
    expect(api.calls(adminApi.createUser)[0]).toMatchObject({
      psnCode: 'E2002',
      name: '王五',
      password: 'long-enough-1',
      isAdmin: false,
      lineIds: [2],
    });
    await vi.waitFor(() => expect(toasts).toContain('保存成功'));
  });

  it('checks the form before sending, and shows the server’s refusal', async () => {
    const api = adminApiFake()
      .on(adminApi.users, () => [user()])
      .on(adminApi.createUser, () => failure('0400', adminMessages.userExists, 400));
    const { user: person } = open(paths.adminUsers, api);
    await screen.findByText('张三', {}, FIRST_PAINT);
    await person.click(screen.getByRole('button', { name: '新建' }));
    await person.type(await screen.findByPlaceholderText('请输入工号'), 'E1001');
    await person.type(screen.getByPlaceholderText('请输入姓名'), '张三');
    await person.type(screen.getByPlaceholderText('至少8位'), 'short');
    await person.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(toasts).toContain(adminMessages.passwordTooShort));
    expect(api.calls(adminApi.createUser)).toHaveLength(0);

    await person.type(screen.getByPlaceholderText('至少8位'), '-but-longer');
    await person.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(toasts).toContain(adminMessages.userExists));
    // The form stays open with what was typed.
    expect(screen.getByPlaceholderText('请输入工号')).toHaveProperty('value', 'E1001');
  });

  it('disables a user after asking, and grants lines', async () => {
    const api = adminApiFake()
      .on(adminApi.users, () => [user()])
      .on(adminApi.disableUser, (body) => user({ disabled: Boolean(body?.disabled) }))
      .on(adminApi.updateUser, () => user());
    const { user: person } = open(paths.adminUsers, api);
    await person.click(await screen.findByText('张三', {}, FIRST_PAINT));
    await person.click(await screen.findByText('停用'));
    expect(await screen.findByText('停用 张三 后其登录会立即失效，是否继续？')).toBeTruthy();
    confirmDialog();
    await vi.waitFor(() =>
      expect(api.calls(adminApi.disableUser)).toEqual([{ id: 5, disabled: true }]),
    );

    // Cancelled: 取消操作, nothing sent. The first dialog may still be fading out.
    await person.click(screen.getByText('张三'));
    const before = dialogsNow();
    await person.click(await screen.findByText('停用'));
    answerDialog(await newDialog(before, '停用 张三 后其登录会立即失效，是否继续？'), '取消');
    await vi.waitFor(() => expect(toasts).toContain('取消操作'));
    expect(api.calls(adminApi.disableUser)).toHaveLength(1);

    await person.click(screen.getByText('张三'));
    await person.click(await screen.findByText('产线授权'));
    await person.click(await screen.findByRole('option', { name: 'SMT一线' }));
    await person.click(screen.getByRole('button', { name: '保存' }));
    // SMT一线 was granted: the tap took it away.
    await vi.waitFor(() =>
      expect(api.calls(adminApi.updateUser)).toEqual([{ id: 5, lineIds: [2] }]),
    );
  });
});

function application(overrides: Partial<AdminApplication> = {}): AdminApplication {
  return {
    id: 3,
    name: '周八',
    psnCode: 'E-APPLY',
    mobile: '13812345678',
    status: 'pending',
    reason: '',
    createdAt: '2026-11-22T08:00:00.000Z',
    decidedAt: null,
    ...overrides,
  };
}

describe('applications page', () => {
  it('approves with the chosen lines and shows the initial password once; shows the SMS sent', async () => {
    const api = adminApiFake()
      .on(adminApi.applications, () => [
        application(),
        application({ id: 4, psnCode: 'E-NO', status: 'rejected', reason: '非本厂员工' }),
      ])
      .on(applicationsApi.smsOutbox, () => [
        { mobile: '13812345678', text: '您的验证码为 123456', sentAt: '2026-11-22T08:00:00.000Z' },
      ])
      .on(adminApi.approve, () => ({ userId: 9, initialPassword: 'Init-Pass-1' }));
    const { user: person } = open(paths.adminApplications, api);
    // Only the pending application (周八, E-APPLY) offers 通过; E-NO was refused.
    const approve = await screen.findByRole('button', { name: '通过' }, FIRST_PAINT);
    expect(screen.getByText('已驳回')).toBeTruthy();
    expect(screen.getByText(/^E-NO · .* · 非本厂员工$/)).toBeTruthy();
    expect(await screen.findByText('您的验证码为 123456')).toBeTruthy();

    await person.click(approve);
    // The popup and its form load with this first tap, the lines with the form.
    await person.click(await screen.findByRole('option', { name: '组装线' }));
    await person.click(screen.getByRole('button', { name: '通过并创建账号' }));
    expect(
      await screen.findByText('账号 E-APPLY 已创建，初始密码 Init-Pass-1（已短信发送给申请人）'),
    ).toBeTruthy();
    expect(api.calls(adminApi.approve)).toEqual([{ id: 3, lineIds: [2] }]);
  });

  it('asks for a reason before rejecting, then sends it', async () => {
    const api = adminApiFake()
      .on(adminApi.applications, () => [application()])
      .on(applicationsApi.smsOutbox, () => [])
      .on(adminApi.reject, () => application({ status: 'rejected', reason: '重复申请' }));
    const { user: person } = open(paths.adminApplications, api);
    await person.click(await screen.findByRole('button', { name: '驳回' }, FIRST_PAINT));
    const submit = (await screen.findAllByRole('button', { name: '驳回' })).at(-1)!;
    await person.click(submit);
    await vi.waitFor(() => expect(toasts).toContain(adminMessages.reasonRequired));
    expect(api.calls(adminApi.reject)).toHaveLength(0);
    await person.type(screen.getByPlaceholderText('请输入驳回原因'), '重复申请');
    await person.click(submit);
    await vi.waitFor(() =>
      expect(api.calls(adminApi.reject)).toEqual([{ id: 3, reason: '重复申请' }]),
    );
  });
});

describe('lines page', () => {
  it('shows lines with their groups and counts, adds a line, and shows why one cannot go', async () => {
    const api = adminApiFake()
      .on(adminApi.saveLine, (body) => line({ id: 3, name: String(body?.name), groups: [] }))
      .on(adminApi.deleteLine, () => failure('0400', adminMessages.lineInUse, 400));
    const { user: person } = open(paths.adminLines, api);
    await screen.findByText('SMT一线（机台 2）', {}, FIRST_PAINT);
    expect(screen.getByText('贴片')).toBeTruthy();
    expect(screen.getByText('组装线（机台 0）')).toBeTruthy();

    await person.type(screen.getByPlaceholderText('新产线名称'), '三线');
    await person.click(screen.getByRole('button', { name: '新增产线' }));
    await vi.waitFor(() =>
      expect(api.calls(adminApi.saveLine)).toEqual([{ name: '三线', sort: 0 }]),
    );

    // A tap on the line's row offers 重命名 / 删除 (its sheet loads with the first tap).
    await person.click(screen.getByText('SMT一线'));
    await person.click(await screen.findByRole('option', { name: '删除' }));
    expect(await screen.findByText('删除产线 SMT一线？')).toBeTruthy();
    expect(api.calls(adminApi.deleteLine)).toHaveLength(0);
    confirmDialog();
    await vi.waitFor(() => expect(api.calls(adminApi.deleteLine)).toEqual([{ id: 1 }]));
    await vi.waitFor(() => expect(toasts).toContain(adminMessages.lineInUse));
  });

  it('renames a product group', async () => {
    const api = adminApiFake().on(adminApi.saveGroup, () => line());
    const { user: person } = open(paths.adminLines, api);
    await person.click(await screen.findByText('贴片', {}, FIRST_PAINT));
    await person.click(await screen.findByRole('option', { name: '重命名' }));
    const input = await screen.findByPlaceholderText('请输入名称');
    await person.clear(input);
    await person.type(input, '贴装');
    confirmDialog();
    await vi.waitFor(() =>
      expect(api.calls(adminApi.saveGroup)).toEqual([{ id: 11, lineId: 1, name: '贴装' }]),
    );
  });
});

describe('machines page', () => {
  const sheetFile = () =>
    new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], 'machines.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });

  it('lists a page of machines, links the export, and creates a machine with the form', async () => {
    const api = adminApiFake()
      .on(adminApi.machines, (query) => ({
        data: query?.pageIndex === '2' ? [machine({ snCode: 'LW-21' })] : [machine()],
        total: 21,
      }))
      .on(adminApi.createMachine, (body) => machine({ snCode: String(body?.snCode) }));
    const { user: person } = open(paths.adminMachines, api);
    // One machine a page: its words are the list's.
    await screen.findByText('LW-1', {}, FIRST_PAINT);
    expect(screen.getByText(/^SMT一线 \/ 贴片 · .* · PPM目标 60$/)).toBeTruthy();
    expect(screen.getByText('共 21 台')).toBeTruthy();
    expect(screen.getByRole('link', { name: '导出表格' }).getAttribute('href')).toBe(
      adminApi.exportMachines.path,
    );
    expect(screen.getByText('1 / 2')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('LW-21');
    expect(api.calls(adminApi.machines).at(-1)).toMatchObject({ pageIndex: '2', pageSize: '20' });

    await person.click(screen.getByRole('button', { name: '新增' }));
    await person.type(await screen.findByPlaceholderText('请输入机台SN码'), 'LW-NEW');
    await person.click(await screen.findByText('组装线'));
    await person.type(screen.getByPlaceholderText('设备名称'), '回流焊');
    await person.click(screen.getByRole('button', { name: '保存' }));
    await vi.waitFor(() => expect(api.calls(adminApi.createMachine)).toHaveLength(1));
    expect(api.calls(adminApi.createMachine)[0]).toMatchObject({
      snCode: 'LW-NEW',
      lineId: 2,
      groupId: null,
      deviceName: '回流焊',
      country: '中国',
    });
  });

  it('opens the form with the tapped machine, then a new one with nothing of it', async () => {
    const api = adminApiFake().on(adminApi.machines, () => ({ data: [machine()], total: 1 }));
    const { user: person } = open(paths.adminMachines, api);
    await person.click(await screen.findByText('LW-1', {}, FIRST_PAINT));
    const sn = await screen.findByPlaceholderText('请输入机台SN码');
    expect(sn).toHaveProperty('value', 'LW-1');
    expect(screen.getByPlaceholderText('设备名称')).toHaveProperty('value', '贴片机');
    // A tap beside the form, on the mask (antd-mobile names it 背景蒙层).
    await person.click(screen.getByRole('button', { name: '背景蒙层', hidden: true }));
    await person.click(screen.getByRole('button', { name: '新增' }));
    await vi.waitFor(() => expect(screen.getByText('新增机台')).toBeTruthy());
    expect(screen.getByPlaceholderText('请输入机台SN码')).toHaveProperty('value', '');
    expect(screen.getByPlaceholderText('设备名称')).toHaveProperty('value', '');
    expect(screen.getByPlaceholderText('国家')).toHaveProperty('value', '中国');
  });

  it('imports a sheet, and reports every bad row of a refused one by its number', async () => {
    const errors = [
      { path: 'row.3', message: '第3行：产线「不存在的产线」不存在' },
      { path: 'row.4', message: '第4行：百分比目标应在0到100之间' },
    ];
    let refuse = true;
    const api = adminApiFake()
      .on(adminApi.machines, () => ({ data: [machine()], total: 1 }))
      .on(adminApi.importMachines, () =>
        refuse ? failure('0400', errors[0]!.message, 400, { errors }) : { created: 2, updated: 1 },
      );
    const { user: person } = open(paths.adminMachines, api);
    await screen.findByText('LW-1', {}, FIRST_PAINT);
    await person.upload(screen.getByLabelText('导入表格'), sheetFile());
    const report = await screen.findByRole('status', { name: '导入结果' });
    expect(report.textContent).toBe(
      '导入失败，未写入任何数据：第3行：产线「不存在的产线」不存在第4行：百分比目标应在0到100之间',
    );
    // The file went as base64 of its bytes.
    expect(api.calls(adminApi.importMachines)).toEqual([{ file: 'UEsDBA==' }]);

    refuse = false;
    await person.upload(screen.getByLabelText('导入表格'), sheetFile());
    await vi.waitFor(() =>
      expect(screen.getByRole('status', { name: '导入结果' }).textContent).toBe(
        '导入成功：新增 2 台，更新 1 台',
      ),
    );
  });

  it('says 请求失败 with a retry when the list cannot be read', async () => {
    let fail = true;
    const api = adminApiFake().on(adminApi.machines, () =>
      fail ? failure('0500', '服务器内部错误', 500) : { data: [machine()], total: 1 },
    );
    const { user: person } = open(paths.adminMachines, api);
    const retry = await screen.findByRole('button', { name: listMessages.retry }, FIRST_PAINT);
    fail = false;
    await person.click(retry);
    expect(await screen.findByText('LW-1')).toBeTruthy();
  });
});

describe('audit log page', () => {
  const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
    id,
    actorName: '厂长',
    action: 'line.update',
    target: 'line:一线',
    before: { name: '1线' },
    after: { name: '一线' },
    createdAt: '2026-11-22T08:00:00.000Z',
    ...overrides,
  });

  it('shows who changed what, before and after, a page at a time', async () => {
    const api = adminApiFake().on(adminApi.audit, (query) =>
      query?.pageIndex === '2'
        ? {
            data: [entry(1, { action: 'user.create', target: 'user:E1', before: null })],
            total: 21,
          }
        : { data: [entry(2)], total: 21 },
    );
    const { user: person } = open(paths.adminAudit, api);
    // One entry a page: its words are the page's.
    await screen.findByText('修改产线', {}, FIRST_PAINT);
    expect(screen.getByText('产线 一线')).toBeTruthy();
    expect(screen.getByText(/^厂长 · /)).toBeTruthy();
    expect(screen.getByText('前：{"name":"1线"}')).toBeTruthy();
    expect(screen.getByText('后：{"name":"一线"}')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('新建用户');
    expect(screen.queryByText(/^前：/)).toBeNull();
    expect(screen.getByText('2 / 2')).toBeTruthy();
  });

  it('says in Chinese who signed in how, the failures counted, bindings and the gateways', async () => {
    const api = adminApiFake().on(adminApi.audit, () => ({
      data: [
        entry(5, {
          actorName: '张三',
          action: 'signIn',
          target: 'user:E1001',
          before: null,
          after: { method: 'wechat', address: '10.0.0.8' },
        }),
        entry(4, {
          actorName: '-',
          action: 'signIn.failed',
          target: 'address:10.0.0.9',
          before: null,
          after: {
            count: 12,
            lastAt: '2026-11-22T08:14:00.000Z',
            methods: ['password'],
            reasons: ['wrongCredentials', 'throttled'],
            addresses: ['10.0.0.9'],
            accounts: ['admin', 'root'],
          },
        }),
        entry(3, {
          action: 'user.resetPassword',
          target: 'user:E1001',
          before: null,
          after: { passwordChanged: true, unbound: ['dingtalk', 'wechat'] },
        }),
        entry(2, {
          action: 'gateway.bind',
          target: 'gateway:GW0000000001',
          before: null,
          after: { snCode: 'LW-S1-001', plcIp: '192.168.1.10', plcModel: 'FX5U' },
        }),
        entry(1, {
          action: 'gateway.rotate',
          target: 'gateway:GW0000000001',
          before: null,
          after: null,
        }),
      ],
      total: 5,
    }));
    open(paths.adminAudit, api);
    await screen.findByText('使用微信登录，地址 10.0.0.8', {}, FIRST_PAINT);
    /** An element whose own words include the phrase (each phrase is one entry's). */
    const says = (phrase: string) => screen.getByText((words) => words.includes(phrase));
    expect(screen.getAllByText('登录')).toHaveLength(1);
    // The sign-in and the password reset both name the user.
    expect(screen.getAllByText('用户 E1001')).toHaveLength(2);
    expect(screen.getByText('登录失败')).toBeTruthy();
    expect(screen.getByText('地址 10.0.0.9')).toBeTruthy();
    expect(
      says(
        '密码登录失败 12 次；用户名或密码错误、尝试过多被拦截；账号 admin、root；地址 10.0.0.9；最后一次 ',
      ),
    ).toBeTruthy();
    expect(says('密码已重置，登录全部失效，解绑钉钉、微信')).toBeTruthy();
    expect(screen.getByText('机台绑定网关')).toBeTruthy();
    // The binding and the new secret both name the gateway.
    expect(screen.getAllByText('网关 GW0000000001')).toHaveLength(2);
    expect(says('机台 LW-S1-001 绑定到此网关（192.168.1.10，FX5U）')).toBeTruthy();
    expect(screen.getByText('更换网关密钥')).toBeTruthy();
    // The summary says it: no record in JSON under it.
    expect(screen.queryByText(/后：/)).toBeNull();
  });
});
