import { useSearchParams } from 'react-router';
import { isDingTalk } from '../../../shared/client-env.ts';
import { DingtalkLoginPage } from './dingtalk-login-page.tsx';
import { WechatLoginPage } from './wechat-login-page.tsx';

/** /login: DingTalk's in-app browser (or ?client=dingtalk) gets the DingTalk version. */
const LoginPage = () => {
  const [params] = useSearchParams();
  return isDingTalk() || params.get('client') === 'dingtalk' ? (
    <DingtalkLoginPage />
  ) : (
    <WechatLoginPage />
  );
};

export default LoginPage;
