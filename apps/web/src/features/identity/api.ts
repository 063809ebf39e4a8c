import type { LoginForm, SessionInfo, UserInfo } from '@linewatch/contracts/identity';
import { identityApi } from '@linewatch/contracts/identity-api';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../shared/api-client.ts';

export type LoginClient = 'wechat' | 'dingtalk';

// The cipher is fetched with the first login: signed-in pages never need it.
const sealed = async (form: LoginForm): Promise<LoginForm> => {
  const { encryptPassword } = await import('@linewatch/contracts/password-cipher');
  return { psnCode: form.psnCode.trim(), passWord: encryptPassword(form.passWord) };
};

export const fetchUserInfo = (): Promise<UserInfo> => call(identityApi.userInfo, undefined);

/**
 * Who the HttpOnly cookie names, or null: asked once per page load before a tab without a token
 * is sent to sign in. Quiet: no toast, no redirect — being signed out is an answer here.
 */
export const restoreSession = async (): Promise<SessionInfo | null> => {
  try {
    const response = await fetch(identityApi.session.path, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return null;
    const reply = (await response.json()) as { code?: string; data?: SessionInfo };
    return reply.code === '0000' && reply.data?.keyId ? reply.data : null;
  } catch {
    return null;
  }
};

export const useLoginMutation = (client: LoginClient) =>
  useMutation({
    mutationFn: async (form: LoginForm) => {
      const body = await sealed(form);
      return client === 'dingtalk'
        ? call(identityApi.dingdingBindUser, body)
        : call(identityApi.wechatBindUser, body);
    },
  });

export const useLogoutMutation = () =>
  useMutation({
    mutationFn: () => call(identityApi.wechatSignOut, undefined),
  });
