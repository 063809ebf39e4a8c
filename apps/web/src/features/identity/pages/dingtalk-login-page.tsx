import { LoginShell } from '../components/login-shell.tsx';

export const DingtalkLoginPage = () => (
  <LoginShell client="dingtalk" subtitle="使用工号登录，绑定钉钉账号" />
);
