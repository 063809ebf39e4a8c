import { identityMessages } from '@linewatch/contracts/identity';
import { ReplyCode } from '@linewatch/contracts/envelope';
import { encryptPassword } from '@linewatch/contracts/password-cipher';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../foundation/http/envelope.ts';
import { sha256 } from '../foundation/shared/secrets.ts';
import { factories, type TestUser } from '../test/factories.ts';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { createIdentityRepository } from './repository.ts';
import type { SessionsEnded } from '../plugins/auth.ts';
import { createIdentityService, type IdentityService } from './service.ts';
import { SESSION_CACHE_MS } from './session-cache.ts';

// Sessions on a real database of their own: what a keyId resolves to, sliding renewal, sign-out
// and the purge job, without HTTP.

const TTL_MS = 3_600_000;
let testDb: TestDb;
let identity: IdentityService;
let repo: ReturnType<typeof createIdentityRepository>;
let make: ReturnType<typeof factories>;
let user: TestUser;

const signIn = async (u: TestUser, password = u.password, address = '10.0.0.1') =>
  identity.login({ psnCode: u.psnCode, passWord: encryptPassword(password), address });

const expiresAt = async (keyId: string) =>
  (
    await testDb.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('key_hash', '=', sha256(keyId))
      .executeTakeFirst()
  )?.expires_at.getTime();

const setExpiry = (keyId: string, at: number) =>
  testDb.db
    .updateTable('sessions')
    .set({ expires_at: new Date(at) })
    .where('key_hash', '=', sha256(keyId))
    .execute();

beforeAll(async () => {
  testDb = await openTestDb();
  make = factories(testDb.db);
  repo = createIdentityRepository(testDb.db);
  identity = createIdentityService(repo, TTL_MS);
  user = await make.createUser({ nickName: '小王' });
});
afterAll(async () => {
  await testDb?.close();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('identity service on a real database', () => {
  it('resolves a keyId to its user; only the hash is stored', async () => {
    const { keyId } = await signIn(user);
    expect(await identity.authenticate(keyId)).toEqual({
      userId: user.id,
      name: user.name,
      nickName: '小王',
      isAdmin: false,
      keyHash: sha256(keyId),
      signedInWith: 'password',
    });
    const stored = await testDb.db.selectFrom('sessions').select('key_hash').execute();
    expect(stored.map((s) => s.key_hash)).not.toContain(keyId);
    expect(await identity.authenticate('not-a-key')).toBeNull();
  });

  it('refuses a wrong password with the same reply as an unknown user', async () => {
    const wrong = await signIn(user, 'not-the-password', '10.0.0.2').catch((e: unknown) => e);
    const nobody = await identity
      .login({ psnCode: 'nobody-here', passWord: encryptPassword('x'), address: '10.0.0.2' })
      .catch((e: unknown) => e);
    for (const refusal of [wrong, nobody]) {
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({
        code: ReplyCode.refused,
        message: identityMessages.wrongCredentials,
      });
    }
  });

  it('renews a session past half its life, and leaves a younger one alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { keyId } = await signIn(user);
    const young = await expiresAt(keyId);
    await identity.authenticate(keyId);
    expect(await expiresAt(keyId)).toBe(young);

    await setExpiry(keyId, Date.now() + TTL_MS / 4);
    vi.advanceTimersByTime(SESSION_CACHE_MS);
    const before = Date.now();
    expect(await identity.authenticate(keyId)).not.toBeNull();
    expect(await expiresAt(keyId)).toBeGreaterThanOrEqual(before + TTL_MS);
  });

  it('ends a session on sign-out and tells the listeners (open sockets close with it)', async () => {
    const { keyId } = await signIn(user);
    const session = (await identity.authenticate(keyId))!;
    const ended: SessionsEnded[] = [];
    const stop = identity.onSessionEnded((what) => ended.push(what));
    try {
      await identity.logout(session);
    } finally {
      stop();
    }
    expect(ended).toEqual([{ session: sha256(keyId) }]);
    expect(await identity.authenticate(keyId)).toBeNull();
  });

  it('reads a session once a second; this instance’s sign-out counts at once, one elsewhere within the second', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const reads = vi.spyOn(repo, 'findSession');
    const { keyId } = await signIn(user);
    for (let i = 0; i < 5; i++) expect(await identity.authenticate(keyId)).not.toBeNull();
    expect(reads).toHaveBeenCalledTimes(1);

    // Another instance signs it out (the row goes): honoured once the second is over.
    await testDb.db.deleteFrom('sessions').where('key_hash', '=', sha256(keyId)).execute();
    vi.advanceTimersByTime(SESSION_CACHE_MS);
    expect(await identity.authenticate(keyId)).toBeNull();

    // Signed out here: refused on the next request, however recently it was read.
    const other = await signIn(user);
    const session = (await identity.authenticate(other.keyId))!;
    await identity.logout(session);
    expect(await identity.authenticate(other.keyId)).toBeNull();
  });

  it('tells which sessions still live, and the purge removes only expired ones', async () => {
    const live = await signIn(user);
    const expired = await signIn(user);
    await setExpiry(expired.keyId, Date.now() - 1_000);
    const hashes = [sha256(live.keyId), sha256(expired.keyId), sha256('gone')];
    expect(await identity.liveSessions(hashes)).toEqual(new Set([sha256(live.keyId)]));
    expect(await identity.authenticate(expired.keyId)).toBeNull();

    await identity.purgeExpiredSessions();
    const left = await testDb.db
      .selectFrom('sessions')
      .select('key_hash')
      .where('key_hash', 'in', hashes)
      .execute();
    expect(left.map((s) => s.key_hash)).toEqual([sha256(live.keyId)]);
  });
});
