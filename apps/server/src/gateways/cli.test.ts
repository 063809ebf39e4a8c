import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createGatewayVerifier } from '../core/gateway-credentials.ts';
import { runGatewayCommand } from './cli.ts';

describe('admin CLI gateway commands', () => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb();
  });
  afterAll(() => test?.close());

  it('registers, rotates and lists; the printed secret is the one the broker checks', async () => {
    const lines: string[] = [];
    const run = (...args: string[]) => runGatewayCommand(test.db, args, (l) => lines.push(l));
    const secretOf = () => lines.find((l) => l.startsWith('密钥 '))!.slice(3);

    expect(await run('gateway:register', 'CLIGW0000001', '一号线网关')).toBe(true);
    const first = secretOf();
    const verify = createGatewayVerifier(test.db);
    expect(await verify('CLIGW0000001', first)).toBe(true);

    lines.length = 0;
    await run('gateway:rotate', 'CLIGW0000001');
    expect(await verify('CLIGW0000001', secretOf())).toBe(true);
    expect(await verify('CLIGW0000001', first)).toBe(false);

    await expect(run('gateway:register', 'CLIGW0000001')).rejects.toThrow('网关已登记');
    await expect(run('gateway:register', 'SHORT')).rejects.toThrow('请输入正确的网关序列号');
    lines.length = 0;
    await run('gateway:list');
    expect(lines).toEqual([expect.stringMatching(/^CLIGW0000001\toffline\t-\t-\t-$/)]);
    expect(await run('user:add')).toBe(false);
  });
});
