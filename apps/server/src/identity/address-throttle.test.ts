import { messages } from '@linewatch/contracts/envelope';
import { identityMessages } from '@linewatch/contracts/identity';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { afterEach, describe, expect, it } from 'vitest';
import { loginRequest } from '../test/http.ts';
import { factories } from '../test/factories.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

// Thirty failed sign-ins from one address within fifteen minutes block that address.
const ADDRESS_LIMIT = 30;

let server: TestServer | undefined;
afterEach(() => server?.close());

/**
 * Fails ADDRESS_LIMIT sign-ins, each for another account and claiming another forwarded address
 * (followed by `proxied`, the address a proxy appends, when given).
 */
const guessFromSpoofedAddresses = async (baseUrl: string, proxied?: string) => {
  for (let i = 0; i < ADDRESS_LIMIT; i++) {
    const claimed = `203.0.113.${i + 1}`;
    const reply = await loginRequest(
      baseUrl,
      { psnCode: `nobody${i}`, passWord: encryptPassword('guess') },
      { 'x-forwarded-for': proxied ? `${claimed}, ${proxied}` : claimed },
    );
    expect(reply.body.msg).toBe(identityMessages.wrongCredentials);
  }
};

/** The real user's sign-in, forwarded as `forwardedFor`. */
const signIn = (user: { psnCode: string; password: string }, forwardedFor: string) =>
  loginRequest(
    server!.baseUrl,
    { psnCode: user.psnCode, passWord: encryptPassword(user.password) },
    { 'x-forwarded-for': forwardedFor },
  );

describe('the per-address sign-in throttle', () => {
  it('ignores X-Forwarded-For by default, so a client cannot pick its own address', async () => {
    server = await startTestServer();
    const user = await factories(server.linewatch).createUser();
    await guessFromSpoofedAddresses(server.baseUrl);
    const next = await signIn(user, '198.51.100.7');
    expect(next.body).toMatchObject({ code: '0410', msg: messages.tooManyAttempts });
  });

  it('counts the forwarded address when TRUST_PROXY=1 (behind a reverse proxy)', async () => {
    server = await startTestServer({ TRUST_PROXY: '1' });
    const user = await factories(server.linewatch).createUser();
    await guessFromSpoofedAddresses(server.baseUrl);
    const next = await signIn(user, '198.51.100.7');
    expect(next.status).toBe(200);
    expect(next.body.success).toBe(true);
  });

  // With `trustProxy: true` the leftmost entry, which the client writes, was the address.
  it('with one trusted hop, a spoofed leftmost X-Forwarded-For entry does not dodge it', async () => {
    server = await startTestServer({ TRUST_PROXY: '1' });
    const user = await factories(server.linewatch).createUser();
    // The proxy appends the address it saw (198.51.100.7) after whatever the client sent.
    await guessFromSpoofedAddresses(server.baseUrl, '198.51.100.7');
    const next = await signIn(user, '192.0.2.99, 198.51.100.7');
    expect(next.body).toMatchObject({ code: '0410', msg: messages.tooManyAttempts });
    // Another client behind the same proxy is not blocked.
    const other = await signIn(user, '198.51.100.8');
    expect(other.body.success).toBe(true);
  });

  it('trusts only the listed proxy addresses', async () => {
    // 127.0.0.1 (the test client) is not the listed proxy: its forwarded header is ignored.
    server = await startTestServer({ TRUST_PROXY: '10.0.0.0/8' });
    const user = await factories(server.linewatch).createUser();
    await guessFromSpoofedAddresses(server.baseUrl);
    const next = await signIn(user, '198.51.100.7');
    expect(next.body).toMatchObject({ code: '0410', msg: messages.tooManyAttempts });
  });
});
