import type { AuditEntry, Page } from '@linewatch/contracts/admin';
import { adminApi } from '@linewatch/contracts/admin-api';
import { adminMessages } from '@linewatch/contracts/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.ts';
import { api, login } from '../test/http.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { CliError, runCli } from './cli-commands.ts';

let server: TestServer;
const printed: string[] = [];
const run = (db: Db, argv: string[], password = 'first-admin-pw') =>
  runCli(argv, db, { print: (line) => printed.push(line), password: async () => password });

beforeAll(async () => {
  // A fresh non-demo install set up from the command line before the server first starts.
  server = await startTestServer(
    {},
    {
      seed: async (db) => {
        await run(db, ['create-admin', '--psn', 'root', '--name', '厂长']);
        await run(db, ['add-line', '--name', '一线']);
        await run(db, ['add-line', '--name', '二线']);
        await run(db, ['add-group', '--line', '一线', '--name', '组装']);
        await run(
          db,
          ['create-user', '--psn', 'op1', '--name', '操作员', '--lines', '一线,二线'],
          'operator-pw-1',
        );
        await run(db, ['disable-user', '--psn', 'op1']);
        await expect(
          run(db, ['create-user', '--psn', 'op2', '--name', 'x'], 'short'),
        ).rejects.toThrow(adminMessages.passwordTooShort);
        await expect(run(db, ['grant-lines', '--psn', 'op1', '--lines', '三线'])).rejects.toThrow(
          adminMessages.lineNotFound,
        );
        await expect(run(db, ['no-such-command'])).rejects.toBeInstanceOf(CliError);
        await run(db, ['list-users']);
      },
    },
  );
});
afterAll(() => server?.close());

describe('admin command line', () => {
  it('makes the first admin, lines and users; the admin signs in and sees it all in the audit log', async () => {
    expect(printed).toContain('已创建管理员 root（厂长）');
    expect(printed.some((line) => line.startsWith('op1\t操作员\t已停用\t一线,二线'))).toBe(true);
    const key = await login(server.baseUrl, 'root', 'first-admin-pw');
    const audit = await api(server.baseUrl, key).get<Page<AuditEntry>>(adminApi.audit.path, {
      pageSize: 100,
    });
    expect(
      audit.body.data.data.map((e) => `${e.actorName} ${e.action} ${e.target}`).reverse(),
    ).toEqual([
      'cli user.create user:root',
      'cli line.create line:一线',
      'cli line.create line:二线',
      'cli group.create group:组装',
      'cli user.create user:op1',
      'cli user.disable user:op1',
    ]);
  });
});
