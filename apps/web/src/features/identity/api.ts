import type {
  DingdingBindUserBody,
  LoginForm,
  SessionInfo,
  SignedInWith,
  UserInfo,
  WechatBindUserBody,
} from '@linewatch/contracts/identity';
import { identityApi } from '@linewatch/contracts/identity-api';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';

export type LoginClient = 'wechat' | 'dingtalk';

/** The messaging account a sign-in also binds (what WeChat or DingTalk vouched for). */
export type BindIdentity =
  Pick<WechatBindUserBody, 'openId'> | Pick<DingdingBindUserBody, 'dingDingUserId' | 'mobile'>;

// The cipher is fetched with the first login: signed-in pages never need it.
const sealed = async (form: LoginForm): Promise<LoginForm> => {
  const { encryptPassword } = await import('@linewatch/contracts/password-cipher');
  return { psnCode: form.psnCode.trim(), passWord: encryptPassword(form.passWord) };
};

interface Profile {
  user: UserInfo;
  roles: readonly string[];
  signedInWith: SignedInWith;
}

/** The first navigation's load (docs/product.md section 2): user info, then roles and routes. */
export const fetchProfile = async (): Promise<Profile> => {
  const [user, profile] = await Promise.all([
    call(identityApi.userInfo, undefined),
    call(identityApi.userProfile, undefined),
  ]);
  return { user, roles: profile.roles, signedInWith: profile.signedInWith };
};

/** No answer came (offline, or a network that reaches nothing): not the same as signed out. */
export const UNREACHABLE = 'unreachable';

/**
 * Who the HttpOnly cookie names, null, or UNREACHABLE: asked once per page load before a tab
 * without a token is sent to sign in. Quiet: no toast, no redirect — being signed out is an answer
 * here.
 */
export const restoreSession = async (): Promise<SessionInfo | null | typeof UNREACHABLE> => {
  try {
    const response = await fetch(identityApi.session.path, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return null;
    const reply = (await response.json()) as { code?: string; data?: SessionInfo };
    return reply.code === '0000' && reply.data?.keyId ? reply.data : null;
  } catch {
    return UNREACHABLE;
  }
};

/** Back from WeChat's authorisation: the openId, and a keyId when it is bound. */
export const exchangeWechatCode = (code: string, state: string | null) =>
  call(identityApi.wechatUserInfo, { code, ...(state ? { state } : {}) });

export const fetchDingtalkConfig = (url: string) => call(identityApi.dingdingConfig, { url });

/**
 * A DingTalk auth code, with the state the config came with: the userid and mobile, and a keyId
 * when they are bound.
 */
export const exchangeDingtalkCode = (code: string, state: string) =>
  call(identityApi.dingdingUserInfo, { code, state });

export const useLoginMutation = (client: LoginClient, identity: BindIdentity | null) =>
  useMutation({
    mutationFn: async (form: LoginForm) => {
      const body = { ...(await sealed(form)), ...identity };
      return client === 'dingtalk'
        ? call(identityApi.dingdingBindUser, body)
        : call(identityApi.wechatBindUser, body);
    },
  });

/** Logging out undoes how the session signed in: unbind WeChat, unbind DingTalk, or nothing. */
export const signOutEndpoint = (signedInWith: SignedInWith) =>
  signedInWith === 'wechat'
    ? identityApi.wechatSignOut
    : signedInWith === 'dingtalk'
      ? identityApi.dingdingSignOut
      : identityApi.signOut;
