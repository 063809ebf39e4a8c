import { identityMessages } from '@linewatch/contracts/identity-messages';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../shared/api-client.ts';
import { isDingTalk, loadedUrl } from '../../../shared/client-env.ts';
import { toastInfo } from '../../../shared/toast.ts';
import { exchangeDingtalkCode, fetchDingtalkConfig, type BindIdentity } from '../api.ts';
import { LoginShell } from '../components/login-shell.tsx';
import { requestDingtalkAuthCode } from '../dingtalk-bridge.ts';
import { useFinishSignIn } from '../use-finish-sign-in.ts';

/**
 * The workplace-chat login page. Inside DingTalk it asks DingTalk who this is (JSAPI auth code):
 * a bound user signs in without the form; otherwise 钉钉未绑定用户请登录 and the password sign-in
 * binds the DingTalk account.
 */
export const DingtalkLoginPage = () => {
  const finish = useFinishSignIn();
  const inDingTalk = isDingTalk();
  const [identity, setIdentity] = useState<BindIdentity | null>(null);
  const [checking, setChecking] = useState(inDingTalk);
  const [notice, setNotice] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !inDingTalk) return;
    started.current = true;
    void (async () => {
      try {
        // Signed for the page DingTalk loaded, which is not /login when the guard routed here;
        // the state the config comes with goes back with the code.
        const config = await fetchDingtalkConfig(loadedUrl());
        const code = await requestDingtalkAuthCode(config.corpId);
        const reply = await exchangeDingtalkCode(code, config.state);
        if (reply.keyId) {
          finish(reply.keyId, 'dingtalk');
          return;
        }
        toastInfo(identityMessages.dingTalkNotBound);
        setIdentity({ dingDingUserId: reply.userid, mobile: reply.mobile });
      } catch (error) {
        // The server's refusals were shown by the api client; DingTalk's own is said on the page,
        // not toasted as an error before the person has done anything.
        if (!(error instanceof ApiError)) setNotice(identityMessages.noCode);
      }
      setChecking(false);
    })();
  }, [inDingTalk, finish]);

  return (
    <LoginShell
      client="dingtalk"
      subtitle="使用工号登录，绑定钉钉账号"
      identity={identity}
      checking={checking}
      notice={notice}
    />
  );
};
