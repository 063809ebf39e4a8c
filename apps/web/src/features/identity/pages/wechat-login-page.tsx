import { isWeChat } from '../../../shared/client-env.ts';
import { LoginShell } from '../components/login-shell.tsx';

/**
 * The messaging-app login page. Inside WeChat a sign-in also binds the WeChat account; in a plain
 * browser there is nothing to bind, so it is an account login and says so.
 */
export const WechatLoginPage = () => (
  <LoginShell
    client="wechat"
    subtitle={isWeChat() ? '使用工号登录，绑定微信账号' : '使用工号和密码登录'}
  />
);
