/** The commands of `npm run admin` (src/cli.ts), apart from the process so tests can run them. */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  adminMessages,
  approveBody,
  createUserBody,
  machineBody,
  rejectBody,
  resetPasswordBody,
  saveGroupBody,
  saveLineBody,
  type AdminMachine,
} from '@linewatch/contracts/admin';
import { createApplicationsRepository } from './applications/repository.ts';
import { createApplicationsService } from './applications/service.ts';
import type { Db } from './foundation/db/database.ts';
import { DomainError } from './foundation/http/envelope.ts';
import { CLI_ACTOR } from './foundation/shared/audit.ts';
import { createLinesRepository, type LineWithGroups } from './lines/repository.ts';
import { createLinesService, type LinesService } from './lines/service.ts';
import { createMachinesRepository } from './machines/repository.ts';
import { createMachinesService, type MachinesService } from './machines/service.ts';
import { MACHINE_COLUMNS } from './machines/sheet.ts';
import { createUsersRepository } from './users/repository.ts';
import { createUsersService, type UsersService } from './users/service.ts';

export class CliError extends Error {}

type Options = Record<string, string | boolean | undefined>;

export interface CliContext {
  users: UsersService;
  lines: LinesService;
  machines: MachinesService;
  options: Options;
  print: (line: string) => void;
  password: () => Promise<string>;
}

export type CliCommand = (context: CliContext) => Promise<void>;

const required = (context: CliContext, name: string): string => {
  const value = context.options[name];
  if (typeof value !== 'string' || !value.trim()) throw new CliError(`缺少参数 --${name}`);
  return value.trim();
};
const optional = (context: CliContext, name: string): string | undefined => {
  const value = context.options[name];
  return typeof value === 'string' ? value.trim() : undefined;
};

/** A contract schema's verdict, or its first Chinese message as the CLI's error. */
const parsed = <T>(
  result: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } },
): T => {
  if (!result.success) throw new CliError(result.error.issues[0]?.message ?? '参数错误');
  return result.data;
};

const userByPsn = async ({ users }: CliContext, psnCode: string) => {
  const user = (await users.users()).find((u) => u.psnCode === psnCode);
  if (!user) throw new CliError(`${adminMessages.userNotFound}：${psnCode}`);
  return user;
};

const lineByName = async ({ lines }: CliContext, name: string): Promise<LineWithGroups> => {
  const line = (await lines.lines()).find((l) => l.name === name);
  if (!line) throw new CliError(`${adminMessages.lineNotFound}：${name}`);
  return line;
};

const lineIdsByName = async (context: CliContext, names: string) => {
  const wanted = names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const ids: number[] = [];
  for (const name of wanted) ids.push((await lineByName(context, name)).id);
  return ids;
};

const groupByName = (line: LineWithGroups, name: string) => {
  const group = line.groups.find((g) => g.name === name);
  if (!group) throw new CliError(`产品组「${name}」不属于产线「${line.name}」`);
  return group;
};

/** The line's groups the command names: --line and --group. */
const namedGroup = async (context: CliContext) =>
  groupByName(await lineByName(context, required(context, 'line')), required(context, 'group'));

const createUser =
  (isAdmin: boolean): CliCommand =>
  async (context) => {
    const body = parsed(
      createUserBody.safeParse({
        psnCode: required(context, 'psn'),
        name: required(context, 'name'),
        password: await context.password(),
        isAdmin,
        lineIds: await lineIdsByName(context, optional(context, 'lines') ?? ''),
      }),
    );
    const user = await context.users.createUser(CLI_ACTOR, body);
    context.print(`已创建${isAdmin ? '管理员' : '用户'} ${user.psnCode}（${user.name}）`);
  };

// Machines ----------------------------------------------------------------------------------

/** A machine's fields as options: the sheet's keys in kebab case (`--ppm-target 60`). */
const MACHINE_FIELDS = MACHINE_COLUMNS.map((c) => c.key)
  .filter((key) => key !== 'snCode' && key !== 'line' && key !== 'group')
  .map((key) => ({ key, option: key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) }));

/**
 * The machine as the command leaves it: what it was (update) with the options given on top. A
 * move to another line leaves the product group empty unless --group names one there; --group ''
 * empties it.
 */
const machineFromOptions = async (context: CliContext, before: AdminMachine | null) => {
  const line =
    before && optional(context, 'line') === undefined
      ? (await context.lines.lines()).find((l) => l.id === before.lineId)!
      : await lineByName(context, required(context, 'line'));
  const groupName = optional(context, 'group');
  const groupId = groupName
    ? groupByName(line, groupName).id
    : groupName === undefined && before?.lineId === line.id
      ? before.groupId
      : null;
  const fields: Record<string, unknown> = {};
  for (const { key, option } of MACHINE_FIELDS) {
    const value = optional(context, option);
    if (value !== undefined) fields[key] = key === 'maxPpm' && value === '' ? null : value;
    else if (before) fields[key] = before[key];
  }
  return parsed(
    machineBody.safeParse({ ...fields, snCode: required(context, 'sn'), lineId: line.id, groupId }),
  );
};

const machineBySn = async ({ machines }: CliContext, snCode: string) => {
  const found = (await machines.machines({ keyword: snCode }, 1, 100)).data.find(
    (m) => m.snCode === snCode,
  );
  if (!found) throw new CliError(`${adminMessages.machineNotFound}：${snCode}`);
  return found;
};

/** A refused import: every bad row by its number, not only the first. */
const importErrors = (error: unknown): never => {
  const rows = error instanceof DomainError ? (error.data as { errors?: unknown } | null) : null;
  if (rows && Array.isArray(rows.errors)) {
    const lines = (rows.errors as { message: string }[]).map((e) => e.message);
    throw new CliError(['导入失败，未写入任何数据：', ...lines].join('\n'));
  }
  throw error;
};

/** The commands by name. */
export const commands: Record<string, CliCommand> = {
  // users
  'create-admin': createUser(true),
  'create-user': createUser(false),
  'reset-password': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    const body = parsed(
      resetPasswordBody.safeParse({ id: user.id, password: await context.password() }),
    );
    await context.users.resetPassword(CLI_ACTOR, body.id, body.password);
    context.print(`已重置 ${user.psnCode} 的密码`);
  },
  'disable-user': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.users.setDisabled(CLI_ACTOR, user.id, true);
    context.print(`已停用 ${user.psnCode}`);
  },
  'enable-user': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.users.setDisabled(CLI_ACTOR, user.id, false);
    context.print(`已启用 ${user.psnCode}`);
  },
  'make-admin': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.users.updateUser(CLI_ACTOR, { id: user.id, isAdmin: true });
    context.print(`${user.psnCode} 现在是管理员`);
  },
  'grant-lines': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    const lineIds = await lineIdsByName(context, required(context, 'lines'));
    await context.users.updateUser(CLI_ACTOR, { id: user.id, lineIds });
    context.print(`${user.psnCode} 的产线：${required(context, 'lines')}`);
  },
  'list-users': async (context) => {
    const lines = new Map((await context.lines.lines()).map((l) => [l.id, l.name]));
    for (const u of await context.users.users()) {
      const flags = [u.isAdmin ? '管理员' : '', u.disabled ? '已停用' : ''].filter(Boolean);
      const granted = u.lineIds.map((id) => lines.get(id)).join(',');
      context.print(`${u.psnCode}\t${u.name}\t${flags.join(' ')}\t${granted}`);
    }
  },

  // account applications
  'list-applications': async (context) => {
    const status = { pending: '待审核', approved: '已通过', rejected: '已驳回' } as const;
    for (const a of await context.users.applications())
      context.print(
        `${a.id}\t${status[a.status]}\t${a.psnCode}\t${a.name}\t${a.mobile}${a.reason ? `\t${a.reason}` : ''}`,
      );
  },
  approve: async (context) => {
    const body = parsed(
      approveBody.safeParse({
        id: required(context, 'id'),
        lineIds: await lineIdsByName(context, optional(context, 'lines') ?? ''),
      }),
    );
    const { initialPassword } = await context.users.approve(CLI_ACTOR, body);
    context.print(`已通过申请 ${body.id}，初始密码 ${initialPassword}（已短信发送给申请人）`);
  },
  reject: async (context) => {
    const body = parsed(
      rejectBody.safeParse({
        id: required(context, 'id'),
        reason: optional(context, 'reason') ?? '',
      }),
    );
    await context.users.reject(CLI_ACTOR, body);
    context.print(`已驳回申请 ${body.id}`);
  },

  // production lines and product groups
  'add-line': async (context) => {
    const body = parsed(saveLineBody.safeParse({ name: required(context, 'name') }));
    const line = await context.lines.saveLine(CLI_ACTOR, body);
    context.print(`已创建产线 ${line.name}（${line.id}）`);
  },
  'rename-line': async (context) => {
    const line = await lineByName(context, required(context, 'line'));
    const body = parsed(
      saveLineBody.safeParse({ id: line.id, name: required(context, 'name'), sort: line.sort }),
    );
    await context.lines.saveLine(CLI_ACTOR, body);
    context.print(`产线 ${line.name} 已改名为 ${body.name}`);
  },
  'delete-line': async (context) => {
    const line = await lineByName(context, required(context, 'line'));
    await context.lines.deleteLine(CLI_ACTOR, line.id);
    context.print(`已删除产线 ${line.name}`);
  },
  'add-group': async (context) => {
    const line = await lineByName(context, required(context, 'line'));
    const body = parsed(
      saveGroupBody.safeParse({ lineId: line.id, name: required(context, 'name') }),
    );
    await context.lines.saveGroup(CLI_ACTOR, body);
    context.print(`已创建产品组 ${body.name}`);
  },
  'rename-group': async (context) => {
    const line = await lineByName(context, required(context, 'line'));
    const group = groupByName(line, required(context, 'group'));
    const body = parsed(
      saveGroupBody.safeParse({ id: group.id, lineId: line.id, name: required(context, 'name') }),
    );
    await context.lines.saveGroup(CLI_ACTOR, body);
    context.print(`产品组 ${group.name} 已改名为 ${body.name}`);
  },
  'delete-group': async (context) => {
    const group = await namedGroup(context);
    await context.lines.deleteGroup(CLI_ACTOR, group.id);
    context.print(`已删除产品组 ${group.name}`);
  },
  'list-lines': async (context) => {
    for (const l of await context.lines.lines())
      context.print(
        `${l.id}\t${l.name}\t机台 ${l.machines}\t${l.groups.map((g) => g.name).join(',')}`,
      );
  },

  // machines
  'add-machine': async (context) => {
    const machine = await context.machines.saveMachine(
      CLI_ACTOR,
      await machineFromOptions(context, null),
      'create',
    );
    context.print(`已创建机台 ${machine.snCode}（${machine.lineName}）`);
  },
  'update-machine': async (context) => {
    const before = await machineBySn(context, required(context, 'sn'));
    const machine = await context.machines.saveMachine(
      CLI_ACTOR,
      await machineFromOptions(context, before),
      'update',
    );
    context.print(`已更新机台 ${machine.snCode}`);
  },
  'delete-machine': async (context) => {
    const sn = required(context, 'sn');
    await context.machines.deleteMachine(CLI_ACTOR, sn);
    context.print(`已删除机台 ${sn}`);
  },
  'list-machines': async (context) => {
    const lineName = optional(context, 'line');
    const lineId = lineName ? (await lineByName(context, lineName)).id : undefined;
    for (let pageIndex = 1; ; pageIndex++) {
      const page = await context.machines.machines({ lineId }, pageIndex, 100);
      for (const m of page.data)
        context.print(
          `${m.snCode}\t${m.deviceName}\t${m.lineName}${m.groupName ? `/${m.groupName}` : ''}`,
        );
      if (pageIndex * 100 >= page.total) break;
    }
  },
  'import-machines': async (context) => {
    const file = await readFile(required(context, 'file')).catch(() => {
      throw new CliError(`无法读取文件 ${required(context, 'file')}`);
    });
    const { created, updated } = await context.machines
      .importMachines(CLI_ACTOR, file)
      .catch(importErrors);
    context.print(`导入成功：新增 ${created} 台，更新 ${updated} 台`);
  },
  'export-machines': async (context) => {
    const path = required(context, 'file');
    await writeFile(path, await context.machines.exportMachines());
    context.print(`已导出到 ${path}`);
  },
};

const USAGE = `用法: npm run admin -- <命令> [参数]
用户:   create-admin|create-user --psn 工号 --name 姓名 [--lines 产线1,产线2]
        reset-password|disable-user|enable-user|make-admin --psn 工号
        grant-lines --psn 工号 --lines 产线1,产线2 | list-users
申请:   list-applications | approve --id 编号 [--lines 产线1,产线2] | reject --id 编号 --reason 原因
产线:   add-line --name 名称 | rename-line --line 产线 --name 新名称 | delete-line --line 产线 | list-lines
产品组: add-group --line 产线 --name 名称 | rename-group --line 产线 --group 产品组 --name 新名称
        delete-group --line 产线 --group 产品组
机台:   add-machine|update-machine --sn SN码 [--line 产线] [--group 产品组] [${MACHINE_FIELDS.map((f) => `--${f.option}`).join(' ')}]
        delete-machine --sn SN码 | list-machines [--line 产线]
        import-machines --file 机台.xlsx | export-machines --file 机台.xlsx
网关:   gateway:register, gateway:rotate, gateway:list, gateway:help
密码取自环境变量 LINEWATCH_PASSWORD，否则在终端输入（从不作为参数）。`;

const OPTIONS = {
  psn: { type: 'string' },
  name: { type: 'string' },
  lines: { type: 'string' },
  line: { type: 'string' },
  group: { type: 'string' },
  id: { type: 'string' },
  reason: { type: 'string' },
  sn: { type: 'string' },
  file: { type: 'string' },
  ...Object.fromEntries(MACHINE_FIELDS.map((f) => [f.option, { type: 'string' }])),
} as const satisfies Record<string, { type: 'string' }>;

export interface CliIo {
  print: (line: string) => void;
  password: () => Promise<string>;
  /** Sends an approved applicant their account by SMS (the embedded channel's outbox). */
  tell: (mobile: string, text: string) => Promise<void>;
  /** Tells the servers running on the same database that machines, lines or groups changed. */
  machinesChanged: () => Promise<void>;
  /**
   * Ends every session of a user (disabled, new password) and tells the servers running on the
   * same database, which close the user's sockets at once (identity's repository does both).
   */
  endUserSessions: (userId: number) => Promise<void>;
}

/** Runs one command against a database; the exit code is the caller's. */
export const runCli = async (argv: string[], db: Db, io: CliIo): Promise<void> => {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new CliError(`参数错误：${(error as Error).message}\n${USAGE}`);
  }
  const command = commands[args.positionals[0] ?? ''];
  if (!command) throw new CliError(USAGE);
  const reloadMachines = io.machinesChanged;
  const lines = createLinesService({ repo: createLinesRepository(db), reloadMachines });
  const machines = createMachinesService({
    repo: createMachinesRepository(db),
    lines,
    reloadMachines,
  });
  const users = createUsersService({
    repo: createUsersRepository(db),
    lines,
    endUserSessions: io.endUserSessions,
    // Nothing kept here; running servers are told by the notice the change commits with.
    userChanged: () => undefined,
    // The applications an admin decides, and the SMS telling an approved applicant (io.tell).
    applications: createApplicationsService(createApplicationsRepository(db), {
      send: io.tell,
      recent: async () => [],
    }),
  });
  await command({
    users,
    lines,
    machines,
    options: args.values,
    print: io.print,
    password: io.password,
  });
};
