import type { AuditEntry } from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { adminMessages } from '@linewatch/contracts/admin';
import { devicesApi } from '@linewatch/contracts/devices-api';
import type { MachineListReply } from '@linewatch/contracts/devices';
import type { Page } from '@linewatch/contracts/rules/paging';
import ExcelJS from 'exceljs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './foundation/db/database.ts';
import { api, login } from './test/http.ts';
import { startTestServer, type TestServer } from './test/test-server.ts';
import { runCli } from './cli-commands.ts';
import { MACHINE_COLUMNS, readMachineSheet } from './machines/sheet.ts';

let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'lw-cli-test-'));
const printed: string[] = [];
const texts: { mobile: string; text: string }[] = [];
const run = (db: Db, argv: string[], password = 'first-admin-pw') =>
  runCli(argv, db, {
    print: (line) => printed.push(line),
    password: async () => password,
    tell: async (mobile, text) => void texts.push({ mobile, text }),
    // What a running server on PostgreSQL does when the CLI announces a change (registry.follow);
    // the first commands run before the server starts.
    machinesChanged: async () => {
      await server?.linewatch.registry.reload();
    },
    // What cli.ts wires: identity's repository deletes them (and announces it).
    endUserSessions: async (userId) => {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
  });
/** What the command refused, as the CLI prints it. */
const refusal = async (db: Db, argv: string[], password?: string) => {
  try {
    await run(db, argv, password);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was not refused`);
};

type Row = Partial<Record<(typeof MACHINE_COLUMNS)[number]['key'], string | number>>;
const writeSheet = async (name: string, rows: Row[]) => {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('机台');
  ws.addRow(MACHINE_COLUMNS.map((c) => c.header));
  for (const row of rows) ws.addRow(MACHINE_COLUMNS.map((c) => row[c.key] ?? null));
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(await workbook.xlsx.writeBuffer()));
  return path;
};

const refused: Record<string, string> = {};
let applicantPassword = '';
let applicationIds: number[] = [];

beforeAll(async () => {
  const good = await writeSheet('good.xlsx', [
    { snCode: 'XL-1', deviceName: '贴片机', line: '一线', group: '总装', ppmTarget: 40 },
    { snCode: 'XL-2', deviceName: '回流焊', line: '二线', ppmTarget: 30 },
  ]);
  const bad = await writeSheet('bad.xlsx', [
    { snCode: 'XL-3', deviceName: '贴片机', line: '一线' },
    { snCode: 'XL-4', deviceName: '贴片机', line: '不存在的产线' },
    // an empty 设备名称 cell
    { snCode: 'XL-5', line: '一线' },
  ]);
  // A fresh non-demo install set up from the command line before the server first starts.
  server = await startTestServer(
    {},
    {
      seed: async (db) => {
        await run(db, ['create-admin', '--psn', 'root', '--name', '厂长']);
        for (const name of ['一线', '二线', '三线']) await run(db, ['add-line', '--name', name]);
        await run(db, ['add-group', '--line', '一线', '--name', '组装']);
        await run(db, ['rename-group', '--line', '一线', '--group', '组装', '--name', '总装']);
        await run(db, ['add-group', '--line', '二线', '--name', '测试']);
        await run(db, ['delete-group', '--line', '二线', '--group', '测试']);
        await run(db, ['rename-line', '--line', '三线', '--name', '备用线']);
        await run(db, ['delete-line', '--line', '备用线']);

        // machines one by one
        await run(db, [
          'add-machine',
          '--sn',
          'CLI-1',
          '--line',
          '一线',
          '--group',
          '总装',
          '--device-name',
          '冲压机',
          '--ppm-target',
          '60',
          '--province',
          '广东省',
          '--city',
          '深圳市',
        ]);
        await run(db, [
          'update-machine',
          '--sn',
          'CLI-1',
          '--nick-sn-code',
          '冲1',
          '--yield-target',
          '98',
        ]);
        await run(db, ['add-machine', '--sn', 'CLI-2', '--line', '二线', '--device-name', '焊机']);
        await run(db, ['delete-machine', '--sn', 'CLI-2']);
        refused.lineInUse = await refusal(db, ['delete-line', '--line', '一线']);
        refused.noDeviceName = await refusal(db, [
          'add-machine',
          '--sn',
          'CLI-8',
          '--line',
          '一线',
        ]);
        refused.badTarget = await refusal(db, [
          'add-machine',
          '--sn',
          'CLI-9',
          '--line',
          '一线',
          '--device-name',
          'x',
          '--yield-target',
          '150',
        ]);

        // sheets
        await run(db, ['import-machines', '--file', good]);
        refused.badSheet = await refusal(db, ['import-machines', '--file', bad]);
        await run(db, ['export-machines', '--file', join(dir, 'export.xlsx')]);

        // users
        await run(
          db,
          ['create-user', '--psn', 'op1', '--name', '操作员', '--lines', '一线,二线'],
          'operator-pw-1',
        );
        await run(db, ['reset-password', '--psn', 'op1'], 'operator-pw-2');
        await run(db, ['create-user', '--psn', 'op2', '--name', '组长'], 'leader-pw-1');
        await run(db, ['grant-lines', '--psn', 'op2', '--lines', '二线']);
        await run(db, ['make-admin', '--psn', 'op2']);
        await run(db, ['disable-user', '--psn', 'op2']);
        refused.shortPassword = await refusal(
          db,
          ['create-user', '--psn', 'op3', '--name', 'x'],
          'short',
        );
        refused.unknownLine = await refusal(db, ['grant-lines', '--psn', 'op1', '--lines', '三线']);
        refused.passwordArgument = await refusal(db, [
          'create-user',
          '--psn',
          'op3',
          '--name',
          'x',
          '--password',
          'secret-pw-1',
        ]);
        refused.unknownCommand = await refusal(db, ['no-such-command']);

        // account applications
        const [first, second] = await db
          .insertInto('account_applications')
          .values([
            { token_hash: 'h1', name: '周八', psn_code: 'E801', mobile: '13800000801' },
            { token_hash: 'h2', name: '吴九', psn_code: 'E802', mobile: '13800000802' },
          ])
          .returning('id')
          .execute();
        applicationIds = [first!.id, second!.id];
        await run(db, ['list-applications']);
        await run(db, ['approve', '--id', String(first!.id), '--lines', '二线']);
        refused.noReason = await refusal(db, ['reject', '--id', String(second!.id)]);
        await run(db, ['reject', '--id', String(second!.id), '--reason', '非本厂员工']);
        refused.decided = await refusal(db, ['approve', '--id', String(second!.id)]);
        applicantPassword = /初始密码 (\S+)（/.exec(printed.join('\n'))?.[1] ?? '';

        await run(db, ['list-users']);
        await run(db, ['list-lines']);
        await run(db, ['list-machines', '--line', '一线']);
      },
    },
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('admin command line on a fresh install', () => {
  it('edits lines and groups one by one, and will not delete a line that still has machines', () => {
    expect(printed).toContain('已创建管理员 root（厂长）');
    expect(printed).toContain('产品组 组装 已改名为 总装');
    expect(printed).toContain('已删除产线 备用线');
    expect(refused.lineInUse).toBe(adminMessages.lineInUse);
    // list-lines: id, name, machine count, groups
    expect(printed.some((l) => /^\d+\t一线\t机台 2\t总装$/.test(l))).toBe(true);
    expect(printed.some((l) => /^\d+\t二线\t机台 1\t$/.test(l))).toBe(true);
    expect(printed.some((l) => l.includes('备用线') && l.includes('机台'))).toBe(false);
  });

  it('adds, updates and deletes machines, every field by its option, checked by the contract', async () => {
    const machine = await server.linewatch.database.db
      .selectFrom('devices')
      .selectAll()
      .where('sn_code', '=', 'CLI-1')
      .executeTakeFirstOrThrow();
    // The update kept what it did not name (group, PPM target, place).
    expect(machine).toMatchObject({
      device_name: '冲压机',
      nick_sn_code: '冲1',
      ppm_target: 60,
      yield_target: 98,
      province: '广东省',
      city: '深圳市',
    });
    expect(machine.group_id).not.toBeNull();
    expect(refused.badTarget).toBe(adminMessages.badPercent);
    // Left out: the contract's own words, not zod's 无效输入：期望 string，实际接收 undefined.
    expect(refused.noDeviceName).toBe(adminMessages.deviceNameRequired);
    expect(printed).toContain('已删除机台 CLI-2');
    expect(printed.filter((l) => l.endsWith('\t一线/总装'))).toEqual([
      'CLI-1\t冲压机\t一线/总装',
      'XL-1\t贴片机\t一线/总装',
    ]);
  });

  it('imports a sheet, refuses a sheet with a bad row by its number writing nothing, and exports', async () => {
    expect(printed).toContain('导入成功：新增 2 台，更新 0 台');
    expect(refused.badSheet).toBe(
      `导入失败，未写入任何数据：\n第3行：产线「不存在的产线」不存在\n第4行：${adminMessages.deviceNameRequired}`,
    );
    const sns = (
      await server.linewatch.database.db.selectFrom('devices').select('sn_code').execute()
    ).map((d) => d.sn_code);
    expect(sns.sort()).toEqual(['CLI-1', 'XL-1', 'XL-2']);
    const exported = await readMachineSheet(readFileSync(join(dir, 'export.xlsx')));
    expect(exported.map((r) => [r.values.snCode, r.values.line, r.values.group])).toEqual([
      ['CLI-1', '一线', '总装'],
      ['XL-1', '一线', '总装'],
      ['XL-2', '二线', null],
    ]);
  });

  it('never takes a password as an argument, and checks it as the app does', () => {
    expect(refused.passwordArgument).toMatch(/^参数错误：.*password/);
    expect(refused.shortPassword).toBe(adminMessages.passwordTooShort);
    expect(refused.unknownLine).toBe(`${adminMessages.lineNotFound}：三线`);
    expect(refused.unknownCommand).toMatch(/^用法: npm run admin/);
  });

  it('approves an application (the account can sign in) and rejects one with its reason', async () => {
    expect(printed.some((l) => /^\d+\t待审核\tE801\t周八\t13800000801$/.test(l))).toBe(true);
    expect(refused.noReason).toBe(adminMessages.reasonRequired);
    expect(refused.decided).toBe(adminMessages.applicationDecided);
    expect(texts).toEqual([
      {
        mobile: '13800000801',
        text: `您的Linewatch账号申请已通过。账号：E801，初始密码：${applicantPassword}`,
      },
    ]);
    const applicant = api(server.baseUrl, await login(server.baseUrl, 'E801', applicantPassword));
    const list = await applicant.get<MachineListReply>(devicesApi.machineList.path, {
      pageIndex: 1,
      pageSize: 15,
    });
    expect(list.body.data.data.map((m) => m.snCode)).toEqual(['XL-2']);
  });

  it('the users it made sign in as made; the admin sees every change in the audit log', async () => {
    expect(printed.some((line) => line.startsWith('op1\t操作员\t\t一线,二线'))).toBe(true);
    expect(printed.some((line) => line.startsWith('op2\t组长\t管理员 已停用\t二线'))).toBe(true);
    await expect(login(server.baseUrl, 'op1', 'operator-pw-1')).rejects.toThrow();
    await login(server.baseUrl, 'op1', 'operator-pw-2');
    await expect(login(server.baseUrl, 'op2', 'leader-pw-1')).rejects.toThrow();

    const key = await login(server.baseUrl, 'root', 'first-admin-pw');
    const audit = await api(server.baseUrl, key).get<Page<AuditEntry>>(adminApi.audit.path, {
      pageSize: 100,
    });
    const entries = audit.body.data.data.map((e) => `${e.actorName} ${e.action} ${e.target}`);
    // The sign-ins just made are there too, the failed ones counted by account.
    expect(entries.filter((e) => !e.startsWith('cli ')).reverse()).toEqual([
      expect.stringMatching(/ signIn user:/), // the applicant approved earlier tried their account
      '操作员 signIn.failed user:op1',
      '操作员 signIn user:op1',
      '组长 signIn.failed user:op2',
      '厂长 signIn user:root',
    ]);
    expect(entries.filter((e) => e.startsWith('cli ')).reverse()).toEqual([
      'cli user.create user:root',
      'cli line.create line:一线',
      'cli line.create line:二线',
      'cli line.create line:三线',
      'cli group.create group:组装',
      'cli group.update group:总装',
      'cli group.create group:测试',
      'cli group.delete group:测试',
      'cli line.update line:备用线',
      'cli line.delete line:备用线',
      'cli machine.create machine:CLI-1',
      'cli machine.update machine:CLI-1',
      'cli machine.create machine:CLI-2',
      'cli machine.delete machine:CLI-2',
      'cli machine.import machines:2',
      'cli user.create user:op1',
      'cli user.resetPassword user:op1',
      'cli user.create user:op2',
      'cli user.update user:op2',
      'cli user.update user:op2',
      'cli user.disable user:op2',
      `cli application.approve application:${applicationIds[0]}`,
      `cli application.reject application:${applicationIds[1]}`,
    ]);
  });
});
