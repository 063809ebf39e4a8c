import { identityMessages } from '@linewatch/contracts/identity-messages';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isWeChat } from '../../../shared/client-env.ts';
import { exchangeWechatCode } from '../api.ts';
import { LoginShell } from '../components/login-shell.tsx';
import { useFinishSignIn } from '../use-finish-sign-in.ts';

/**
 * The messaging-app login page. Back from WeChat's authorisation with a code: a bound openId signs
 * in without the form; an unbound one is bound by the password sign-in. In a plain browser it is
 * an account login and says so.
 */
export const WechatLoginPage = () => {
  const [params, setParams] = useSearchParams();
  const finish = useFinishSignIn();
  const [openId, setOpenId] = useState<string | null>(null);
  const [checking, setChecking] = useState(() => Boolean(params.get('code')));
  // Inside WeChat without a code (opened on /login, or after logging out): said on the page, not
  // toasted as an error before the person has done anything.
  const [notice] = useState(() =>
    !params.get('code') && isWeChat() ? identityMessages.noCode : null,
  );
  // A code is good once: never exchanged twice (StrictMode runs effects twice).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    if (!code) return;
    const state = params.get('state');
    // A reload must not send the spent code again.
    const rest = new URLSearchParams(params);
    rest.delete('code');
    rest.delete('state');
    setParams(rest, { replace: true });
    exchangeWechatCode(code, state).then(
      (reply) => {
        if (reply.keyId) {
          finish(reply.keyId, 'wechat');
          return;
        }
        setOpenId(reply.openId);
        setChecking(false);
      },
      // shown by the api client: 获取openid失败, or 授权已失效 for a stale state
      () => setChecking(false),
    );
  }, [params, setParams, finish]);

  const binding = isWeChat() || openId !== null;
  return (
    <LoginShell
      client="wechat"
      subtitle={binding ? '使用工号登录，绑定微信账号' : '使用工号和密码登录'}
      identity={openId ? { openId } : null}
      checking={checking}
      notice={notice}
    />
  );
};
