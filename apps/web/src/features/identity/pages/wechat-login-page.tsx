import { LoginShell } from '../components/login-shell.tsx';

export const WechatLoginPage = () => (
  <LoginShell client="wechat" subtitle="使用工号登录，绑定微信账号" />
);
