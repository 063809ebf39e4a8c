import { identityMessages } from '@linewatch/contracts/identity';
import { messages } from '@linewatch/contracts/envelope';
import { decryptPassword } from '@linewatch/contracts/password-cipher';
import { refused } from '../http/envelope.ts';
import { DUMMY_HASH, newToken, sha256, verifySecret } from '../shared/secrets.ts';
import { LoginThrottle } from './login-throttle.ts';
import type { IdentityRepository } from './repository.ts';

export interface SessionUser {
  userId: number;
  name: string;
  nickName: string;
  isAdmin: boolean;
  keyHash: string;
}

export interface LoginInput {
  psnCode: string;
  passWord: string;
  address: string;
  openId?: string | undefined;
  dingTalk?: { dingDingUserId: string; mobile?: string | undefined } | undefined;
}

const FIFTEEN_MINUTES = 15 * 60_000;

export const createIdentityService = (repo: IdentityRepository, sessionTtlMs: number) => {
  const perAccount = new LoginThrottle(5, FIFTEEN_MINUTES);
  const perAddress = new LoginThrottle(30, FIFTEEN_MINUTES);
  const sessionEndListeners = new Set<(keyHash: string) => void>();

  return {
    /** Unknown user and wrong password get the same reply, after the same scrypt work. */
    async login(input: LoginInput): Promise<{ keyId: string; expiresAt: Date }> {
      const accountKey = input.psnCode.toLowerCase();
      if (perAccount.isBlocked(accountKey) || perAddress.isBlocked(input.address)) {
        throw refused(messages.tooManyAttempts);
      }
      const user = await repo.findUserByPsnCode(input.psnCode);
      const password = decryptPassword(input.passWord);
      const valid = await verifySecret(password ?? '', user?.password_hash ?? DUMMY_HASH);
      if (!user || password === null || !valid) {
        perAccount.fail(accountKey);
        perAddress.fail(input.address);
        throw refused(identityMessages.wrongCredentials);
      }
      perAccount.reset(accountKey);
      // Checked after the password, so a guess does not learn the account is disabled.
      if (user.disabled) throw refused(identityMessages.accountDisabled);
      if (input.openId) await repo.bindOpenId(user.id, input.openId);
      if (input.dingTalk)
        await repo.bindDingTalk(user.id, input.dingTalk.dingDingUserId, input.dingTalk.mobile);
      const keyId = newToken();
      const expiresAt = new Date(Date.now() + sessionTtlMs);
      await repo.createSession(sha256(keyId), user.id, expiresAt);
      return { keyId, expiresAt };
    },

    /** Resolves a keyId to its user, renewing a session past half its life (sliding expiry). */
    async authenticate(keyId: string): Promise<SessionUser | null> {
      const keyHash = sha256(keyId);
      const session = await repo.findSession(keyHash);
      const now = Date.now();
      if (!session || session.expires_at.getTime() <= now) return null;
      if (session.expires_at.getTime() - now < sessionTtlMs / 2) {
        await repo.extendSession(keyHash, new Date(now + sessionTtlMs));
      }
      return {
        userId: session.userId,
        name: session.name,
        nickName: session.nick_name,
        isAdmin: session.is_admin,
        keyHash,
      };
    },

    async logout(user: SessionUser): Promise<void> {
      await repo.unbindMessagingIdentities(user.userId);
      await repo.deleteSession(user.keyHash);
      for (const listener of sessionEndListeners) listener(user.keyHash);
    },

    /** Ends every session of a user (an admin disabled them): their sockets close at once. */
    async endUserSessions(userId: number): Promise<void> {
      for (const keyHash of await repo.deleteUserSessions(userId))
        for (const listener of sessionEndListeners) listener(keyHash);
    },

    /** Called with the key hash of every session signed out (sockets close with it). */
    onSessionEnded(listener: (keyHash: string) => void): () => void {
      sessionEndListeners.add(listener);
      return () => sessionEndListeners.delete(listener);
    },

    /** Which of these sessions are still valid (not signed out, expired or removed with their user). */
    liveSessions: (keyHashes: string[]) => repo.liveSessions(keyHashes, new Date()),

    purgeExpiredSessions: () => repo.deleteExpiredSessions(new Date()),
  };
};

export type IdentityService = ReturnType<typeof createIdentityService>;
