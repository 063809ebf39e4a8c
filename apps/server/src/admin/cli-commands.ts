/** The commands of `npm run admin` (src/cli.ts), apart from the process so tests can run them. */
import { parseArgs } from 'node:util';
import { adminMessages, createUserBody } from '@linewatch/contracts/admin';
import type { Db } from '../db/database.ts';
import { createAdminRepository } from './repository.ts';
import { CLI_ACTOR, createAdminService, type AdminService } from './service.ts';

export interface CliContext {
  admin: AdminService;
  options: Record<string, string | boolean | undefined>;
  print: (line: string) => void;
  password: () => Promise<string>;
}

export type CliCommand = (context: CliContext) => Promise<void>;

const required = (context: CliContext, name: string): string => {
  const value = context.options[name];
  if (typeof value !== 'string' || !value.trim()) throw new CliError(`缺少参数 --${name}`);
  return value.trim();
};

export class CliError extends Error {}

const userByPsn = async ({ admin }: CliContext, psnCode: string) => {
  const user = (await admin.users()).find((u) => u.psnCode === psnCode);
  if (!user) throw new CliError(adminMessages.userNotFound);
  return user;
};

const lineIdsByName = async ({ admin }: CliContext, names: string) => {
  const lines = await admin.lines();
  return names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((name) => {
      const line = lines.find((l) => l.name === name);
      if (!line) throw new CliError(`${adminMessages.lineNotFound}：${name}`);
      return line.id;
    });
};

const createUser =
  (isAdmin: boolean): CliCommand =>
  async (context) => {
    const body = createUserBody.safeParse({
      psnCode: required(context, 'psn'),
      name: required(context, 'name'),
      password: await context.password(),
      isAdmin,
      lineIds: await lineIdsByName(context, String(context.options.lines ?? '')),
    });
    if (!body.success) throw new CliError(body.error.issues[0]?.message ?? '参数错误');
    const user = await context.admin.createUser(CLI_ACTOR, body.data);
    context.print(`已创建${isAdmin ? '管理员' : '用户'} ${user.psnCode}（${user.name}）`);
  };

/** The commands by name. Other domains add theirs here (gateways/cli.ts: register a gateway…). */
export const commands: Record<string, CliCommand> = {
  'create-admin': createUser(true),
  'create-user': createUser(false),
  'reset-password': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    const password = await context.password();
    if (password.length < 8) throw new CliError(adminMessages.passwordTooShort);
    await context.admin.resetPassword(CLI_ACTOR, user.id, password);
    context.print(`已重置 ${user.psnCode} 的密码`);
  },
  'disable-user': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.admin.setDisabled(CLI_ACTOR, user.id, true);
    context.print(`已停用 ${user.psnCode}`);
  },
  'enable-user': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.admin.setDisabled(CLI_ACTOR, user.id, false);
    context.print(`已启用 ${user.psnCode}`);
  },
  'make-admin': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    await context.admin.updateUser(CLI_ACTOR, { id: user.id, isAdmin: true });
    context.print(`${user.psnCode} 现在是管理员`);
  },
  'grant-lines': async (context) => {
    const user = await userByPsn(context, required(context, 'psn'));
    const lineIds = await lineIdsByName(context, required(context, 'lines'));
    await context.admin.updateUser(CLI_ACTOR, { id: user.id, lineIds });
    context.print(`${user.psnCode} 的产线：${required(context, 'lines')}`);
  },
  'add-line': async (context) => {
    const line = await context.admin.saveLine(CLI_ACTOR, {
      name: required(context, 'name'),
      sort: 0,
    });
    context.print(`已创建产线 ${line.name}（${line.id}）`);
  },
  'add-group': async (context) => {
    const [lineId] = await lineIdsByName(context, required(context, 'line'));
    await context.admin.saveGroup(CLI_ACTOR, { lineId: lineId!, name: required(context, 'name') });
    context.print(`已创建产品组 ${required(context, 'name')}`);
  },
  'list-users': async (context) => {
    const lines = new Map((await context.admin.lines()).map((l) => [l.id, l.name]));
    for (const u of await context.admin.users()) {
      const flags = [u.isAdmin ? '管理员' : '', u.disabled ? '已停用' : ''].filter(Boolean);
      const granted = u.lineIds.map((id) => lines.get(id)).join(',');
      context.print(`${u.psnCode}\t${u.name}\t${flags.join(' ')}\t${granted}`);
    }
  },
  'list-lines': async (context) => {
    for (const l of await context.admin.lines())
      context.print(
        `${l.id}\t${l.name}\t机台 ${l.machineCount}\t${l.groups.map((g) => g.name).join(',')}`,
      );
  },
};

const USAGE = `用法: npm run admin -- <命令> [--psn 工号] [--name 名称] [--lines 产线1,产线2] [--line 产线]
命令: ${Object.keys(commands).join(', ')}, gateway:register, gateway:rotate, gateway:list, gateway:help
密码取自环境变量 LINEWATCH_PASSWORD，否则在终端输入。`;

/** Runs one command against a database; the exit code is the caller's. */
export const runCli = async (
  argv: string[],
  db: Db,
  io: { print: (line: string) => void; password: () => Promise<string> },
): Promise<void> => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      psn: { type: 'string' },
      name: { type: 'string' },
      lines: { type: 'string' },
      line: { type: 'string' },
    },
  });
  const command = commands[positionals[0] ?? ''];
  if (!command) throw new CliError(USAGE);
  const admin = createAdminService({
    repo: createAdminRepository(db),
    // A running server closes a disabled user's sockets within seconds (plugins/auth.ts checks).
    endUserSessions: async () => undefined,
    reloadMachines: async () => undefined,
    tell: async () => undefined,
  });
  await command({ admin, options: values, ...io });
};
