import { primitiveMessages } from '@linewatch/contracts/primitives';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginRequest } from '../test/clients.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('bad input is 0400, never 500', () => {
  // The user lookup sent the NUL to the database, which refused it: HTTP 500.
  it('refuses a NUL in psnCode at sign-in with 0400 and a Chinese message', async () => {
    const reply = await loginRequest(server.baseUrl, {
      psnCode: 'admin\u0000',
      passWord: encryptPassword('whatever'),
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: '0400',
      msg: primitiveMessages.controlCharacter,
      data: { errors: [{ path: 'psnCode' }] },
    });
  });
});
