import { identityMessages } from '@linewatch/contracts/identity';
import { messages, ReplyCode } from '@linewatch/contracts/envelope';
import { decryptPassword } from '@linewatch/contracts/password-cipher';
import { timingSafeEqual } from 'node:crypto';
import type { IdentityProvider, SignedInWith } from '../foundation/db/schema/identity.ts';
import { DomainError, notSignedIn, refused } from '../foundation/http/envelope.ts';
import { DUMMY_HASH, newToken, sha256, verifySecret } from '../foundation/shared/secrets.ts';
import type { SessionsEnded, SessionUser } from '../plugins/auth.ts';
import type { DingtalkClient } from './dingtalk-client.ts';
import { LoginThrottle } from './login-throttle.ts';
import type { PendingIdentity, SealedPendingIdentity } from './pending-identity.ts';
import { SessionCache } from './session-cache.ts';
import { ProviderError } from './provider-http.ts';
import type { Account, IdentityRepository } from './repository.ts';
import { FailureEntries, type FailureReason, type SignInMethod } from './sign-in-audit.ts';
import { SpentCodes } from './spent-codes.ts';
import type { WechatClient } from './wechat-client.ts';

/** The account behind a session, and how the session was started. */
export interface SignedInAccount {
  account: Account;
  signedInWith: SignedInWith;
}

export interface LoginInput {
  psnCode: string;
  passWord: string;
  address: string;
  /** The openId / DingTalk userid the bind form sends, to bind to the account. */
  claimed?: PendingIdentity | undefined;
  /** What a provider vouched for to this browser (the signed pending-identity cookie). */
  vouched?: SealedPendingIdentity | null | undefined;
}

export interface Session {
  keyId: string;
  expiresAt: Date;
}

/** What ended: one session (its key hash), or every session of a user. */
/** The messaging platforms this install signs in with (unset: password only). */
export interface Providers {
  wechat?: WechatClient | null;
  dingtalk?: DingtalkClient | null;
  /** Why a platform refused (wrong secret, expired code): for the operator's log. */
  onProviderError?: (error: ProviderError) => void;
}

const FIFTEEN_MINUTES = 15 * 60_000;
/** WeChat and DingTalk honour an authorisation code for five minutes. */
const CODE_LIFETIME_MS = 5 * 60_000;

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

export const createIdentityService = (
  repo: IdentityRepository,
  sessionTtlMs: number,
  providers: Providers = {},
  /** Tests: how long a session read is kept (SessionCache's default when unset). */
  sessionCacheMs?: number,
) => {
  const perAccount = new LoginThrottle(5, FIFTEEN_MINUTES);
  const perAddress = new LoginThrottle(30, FIFTEEN_MINUTES);
  const spentCodes = new SpentCodes(CODE_LIFETIME_MS);
  const sessionEndListeners = new Set<(ended: SessionsEnded) => void>();
  // A session read within the last second; it cannot expire meanwhile (it is renewed with half
  // its life left).
  const recentSessions = new SessionCache<SessionUser>(sessionCacheMs);
  const sessionsEnded = (ended: SessionsEnded | null) => {
    if (ended === null) recentSessions.clear();
    else if ('session' in ended) recentSessions.drop(ended.session);
    else recentSessions.dropWhere((user) => user.userId === ended.user);
    if (ended) for (const listener of sessionEndListeners) listener(ended);
  };

  const startSession = async (userId: number, signedInWith: SignedInWith): Promise<Session> => {
    const keyId = newToken();
    const expiresAt = new Date(Date.now() + sessionTtlMs);
    await repo.createSession(sha256(keyId), userId, expiresAt, signedInWith);
    return { keyId, expiresAt };
  };

  /** A provider call whose failure the user sees as `msg` (code 0500, docs/product.md section 8). */
  const fromProvider = async <T>(work: () => Promise<T>, msg: string): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      providers.onProviderError?.(error);
      throw new DomainError(ReplyCode.fault, msg);
    }
  };

  /** A code is exchanged once: a replayed one is refused before the provider is asked. */
  const spend = (provider: IdentityProvider, code: string) => {
    if (!spentCodes.spend(`${provider}:${code}`))
      throw new ProviderError(`${provider}: code used twice`);
  };

  const failureEntries = new FailureEntries();

  /** A failed sign-in, counted into its entry of the audit log (sign-in-audit.ts). */
  const failed = async (failure: {
    user?: Pick<Account, 'id' | 'psnCode' | 'name'> | undefined;
    method: SignInMethod;
    reason: FailureReason;
    address: string;
    account?: string | undefined;
  }) => {
    const { user, address } = failure;
    const at = new Date();
    const { key, overflow } = failureEntries.entryFor(
      user ? `user:${user.id}` : `address:${address}`,
      at.getTime(),
    );
    await repo.countFailedSignIn({
      key,
      actorName: user?.name ?? '-',
      target: overflow ? 'signIn:overflow' : user ? `user:${user.psnCode}` : `address:${address}`,
      method: failure.method,
      reason: failure.reason,
      address,
      account: failure.account,
      at,
    });
  };

  /** A sign-in that started a session, in the audit log. */
  const signedIn = async (
    user: Pick<Account, 'id' | 'psnCode' | 'name'>,
    method: SignInMethod,
    address: string,
  ) =>
    repo.audit({
      actorId: user.id,
      actorName: user.name,
      action: 'signIn',
      target: `user:${user.psnCode}`,
      after: { method, address },
    });

  const signInBound = async (provider: IdentityProvider, subject: string, address: string) => {
    const userId = await repo.findUserIdByIdentity(provider, subject);
    if (userId === undefined) return null;
    const user = await repo.findUserById(userId);
    if (!user) return null;
    await signedIn(user, provider, address);
    return startSession(userId, provider);
  };

  return {
    /** Unknown user and wrong password get the same reply, after the same scrypt work. */
    async login(input: LoginInput): Promise<Session> {
      const { claimed, vouched, address } = input;
      const account = input.psnCode;
      // Checked first: a stale bind page must not cost the account a throttled attempt.
      if (
        claimed &&
        (!vouched ||
          vouched.provider !== claimed.provider ||
          !sameText(vouched.subject, claimed.subject))
      ) {
        await failed({ method: 'password', reason: 'authorizationExpired', address, account });
        throw refused(identityMessages.authorizationExpired);
      }
      const accountKey = input.psnCode.toLowerCase();
      if (perAccount.isBlocked(accountKey) || perAddress.isBlocked(address)) {
        await failed({ method: 'password', reason: 'throttled', address, account });
        throw refused(messages.tooManyAttempts);
      }
      const user = await repo.findUserByPsnCode(input.psnCode);
      const password = decryptPassword(input.passWord);
      const valid = await verifySecret(password ?? '', user?.passwordHash ?? DUMMY_HASH);
      if (!user || password === null || !valid) {
        perAccount.fail(accountKey);
        perAddress.fail(address);
        await failed({ user, method: 'password', reason: 'wrongCredentials', address, account });
        throw refused(identityMessages.wrongCredentials);
      }
      perAccount.reset(accountKey);
      // Checked after the password, so a guess does not learn the account is disabled.
      if (user.disabled) {
        await failed({ user, method: 'password', reason: 'disabled', address });
        throw refused(identityMessages.accountDisabled);
      }
      const binds = claimed && vouched;
      if (binds) {
        if (
          !(await repo.bindIdentity(
            user.id,
            vouched.provider,
            vouched.subject,
            vouched.mobile,
            vouched,
          ))
        ) {
          await failed({ user, method: 'password', reason: 'authorizationExpired', address });
          throw refused(identityMessages.authorizationExpired);
        }
        await repo.audit({
          actorId: user.id,
          actorName: user.name,
          action: 'identity.bind',
          target: `user:${user.psnCode}`,
          after: { provider: vouched.provider, subject: vouched.subject },
        });
      }
      await signedIn(user, 'password', address);
      return startSession(user.id, binds ? vouched.provider : 'password');
    },

    /**
     * WeChat's return from authorisation: `state` must be the one this browser was given (its
     * cookie), the code is exchanged once for the openid, and a bound openid signs in.
     */
    async signInWithWechat(input: {
      code: string;
      state: string | undefined;
      expectedState: string | undefined;
      address: string;
    }): Promise<{ openId: string; session: Session | null }> {
      const { wechat } = providers;
      const { address } = input;
      if (!wechat) throw new DomainError(ReplyCode.fault, identityMessages.openIdFailed);
      if (!input.state || !input.expectedState || !sameText(input.state, input.expectedState)) {
        await failed({ method: 'wechat', reason: 'authorizationExpired', address });
        throw refused(identityMessages.authorizationExpired);
      }
      const openId = await fromProvider(async () => {
        spend('wechat', input.code);
        return wechat.openIdOf(input.code);
      }, identityMessages.openIdFailed).catch(async (error: unknown) => {
        await failed({ method: 'wechat', reason: 'providerRefused', address });
        throw error;
      });
      return { openId, session: await signInBound('wechat', openId, address) };
    },

    /** WeChat's authorisation page for a return to `redirectUri`, or null when not configured. */
    wechatAuthorizeUrl: (redirectUri: string, state: string): string | null =>
      providers.wechat?.authorizeUrl(redirectUri, state) ?? null,

    /**
     * The JSAPI signature for a page of this app (`appOrigin`, PUBLIC_URL's) only: a signature
     * for another site's page would let that page call DingTalk's JSAPI as this app.
     */
    async dingtalkConfig(url: string, appOrigin: string | undefined) {
      const { dingtalk } = providers;
      if (!dingtalk || !appOrigin)
        throw new DomainError(ReplyCode.fault, identityMessages.loginFailed);
      if (!URL.canParse(url) || new URL(url).origin !== appOrigin) {
        const message = identityMessages.urlNotOurs;
        throw new DomainError(ReplyCode.badInput, message, { errors: [{ path: 'url', message }] });
      }
      return fromProvider(() => dingtalk.jsapiConfig(url), identityMessages.loginFailed);
    },

    /**
     * A DingTalk auth code: the user and mobile, and a session when they are bound. `state` must
     * be the one this browser was given with the config (its cookie), checked before the code is
     * spent: otherwise anyone's code sent to a victim's browser would sign it in as them.
     */
    async signInWithDingtalk(input: {
      code: string;
      state: string | undefined;
      expectedState: string | undefined;
      address: string;
    }): Promise<{ userid: string; mobile: string; session: Session | null }> {
      const { dingtalk } = providers;
      const { code, address } = input;
      if (!dingtalk) throw new DomainError(ReplyCode.fault, identityMessages.loginFailed);
      if (!input.state || !input.expectedState || !sameText(input.state, input.expectedState)) {
        await failed({ method: 'dingtalk', reason: 'authorizationExpired', address });
        throw refused(identityMessages.authorizationExpired);
      }
      const { userid, mobile } = await fromProvider(async () => {
        spend('dingtalk', code);
        return dingtalk.userOfCode(code);
      }, identityMessages.loginFailed).catch(async (error: unknown) => {
        await failed({ method: 'dingtalk', reason: 'providerRefused', address });
        throw error;
      });
      return { userid, mobile, session: await signInBound('dingtalk', userid, address) };
    },

    /**
     * Resolves a keyId to its user, renewing a session past half its life (sliding expiry).
     * Read from the database at most once a second per session (SessionCache).
     */
    async authenticate(keyId: string): Promise<SessionUser | null> {
      const keyHash = sha256(keyId);
      const now = Date.now();
      const recent = recentSessions.get(keyHash, now);
      if (recent) return recent;
      const mark = recentSessions.mark();
      const session = await repo.findSession(keyHash);
      if (!session || session.expires_at.getTime() <= now) return null;
      if (session.expires_at.getTime() - now < sessionTtlMs / 2) {
        await repo.extendSession(keyHash, new Date(now + sessionTtlMs));
      }
      const user: SessionUser = {
        userId: session.userId,
        name: session.name,
        nickName: session.nick_name,
        isAdmin: session.is_admin,
        keyHash,
        signedInWith: session.signed_in_with,
      };
      recentSessions.set(keyHash, user, mark, now);
      return user;
    },

    /** The account behind a session, with the spec's fixed roles (and `admin` for admins). */
    async profile(user: SessionUser): Promise<SignedInAccount> {
      const account = await repo.findUserById(user.userId);
      if (!account) throw notSignedIn();
      return { account, signedInWith: user.signedInWith ?? 'password' };
    },

    /**
     * Ends the session; `unbind` also releases that messaging account from the user. The other
     * instances hear of it (the repository announces it with the delete) and do as this one.
     */
    async logout(user: SessionUser, unbind: IdentityProvider | null = null): Promise<void> {
      if (unbind) {
        await repo.unbindIdentity(user.userId, unbind);
        const row = await repo.findUserById(user.userId);
        await repo.audit({
          actorId: user.userId,
          actorName: user.name,
          action: 'identity.unbind',
          target: `user:${row?.psnCode ?? user.userId}`,
          after: { provider: unbind },
        });
      }
      await repo.deleteSession(user.keyHash);
      sessionsEnded({ session: user.keyHash });
    },

    /** Ends every session of a user (disabled, new password): their sockets close at once. */
    async endUserSessions(userId: number): Promise<void> {
      await repo.deleteUserSessions(userId);
      sessionsEnded({ user: userId });
    },

    /**
     * Sessions ended through another instance or the admin CLI (db/notices.ts `sessions_ended`;
     * null: notices may have been lost): dropped here too, and their sockets here close.
     */
    sessionsEndedElsewhere: (ended: SessionsEnded | null) => sessionsEnded(ended),

    /**
     * Users' name or rights changed, here or elsewhere (null: anyone's may have): their next
     * request reads them anew.
     */
    usersChanged(userIds: readonly number[] | null): void {
      if (userIds === null) recentSessions.clear();
      else {
        const changed = new Set(userIds);
        recentSessions.dropWhere((user) => changed.has(user.userId));
      }
    },

    /** Called with every session, or every user's sessions, that ended (sockets close with them). */
    onSessionEnded(listener: (ended: SessionsEnded) => void): () => void {
      sessionEndListeners.add(listener);
      return () => sessionEndListeners.delete(listener);
    },

    /** Which of these sessions are still valid (not signed out, expired or removed with their user). */
    liveSessions: (keyHashes: string[]) => repo.liveSessions(keyHashes, new Date()),

    purgeExpiredSessions: () => repo.deleteExpiredSessions(new Date()),
  };
};

export type IdentityService = ReturnType<typeof createIdentityService>;
