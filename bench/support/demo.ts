import { identityApi } from '@linewatch/contracts/identity-api';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type BenchServer } from './server.ts';

export interface DemoSession {
  server: BenchServer;
  /** The demo operator's session, for the keyId cookie. */
  keyId: string;
  stop(): Promise<void>;
}

/**
 * The real server with the live demo factory on a fresh data directory (it serves the built web
 * app, compressed as in production), and the demo operator signed in.
 */
export const startDemo = async (entry = 'apps/server/src/main.ts'): Promise<DemoSession> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lw-bench-demo-'));
  const server = await startServer({
    entry,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DEMO: '1',
      SECRET: 'bench-secret-0123456789',
      LOG_LEVEL: 'warn',
    },
  });
  const login = await fetch(`${server.baseUrl}${identityApi.wechatBindUser.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ psnCode: 'operator', passWord: encryptPassword('Operator@2026') }),
  });
  const keyId = ((await login.json()) as { data: { keyId: string } }).data.keyId;
  return {
    server,
    keyId,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
