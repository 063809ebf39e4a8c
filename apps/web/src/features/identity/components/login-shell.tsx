import type { LoginForm as LoginFormValues } from '@linewatch/contracts/identity';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import { DotLoading } from 'antd-mobile';
import { Link, useSearchParams } from 'react-router';
import { webMessages } from '../../../shared/messages.ts';
import { LOGIN_AGAIN, paths } from '../../../shared/paths.ts';
import { toastFailure } from '../../../shared/toast.ts';
import { useLoginMutation, type BindIdentity, type LoginClient } from '../api.ts';
import { useFinishSignIn } from '../use-finish-sign-in.ts';
import { LoginForm } from './login-form.tsx';
import styles from './login-shell.module.css';

interface LoginShellProps {
  client: LoginClient;
  subtitle: string;
  /** The messaging account the sign-in binds; null: an account login only. */
  identity: BindIdentity | null;
  /** The platform is being asked who this is (silent sign-in): no form yet. */
  checking?: boolean;
  /**
   * Why the silent sign-in did not happen (未获取到code), said under the subtitle: it is no error
   * of the person's, who has done nothing yet, so no toast.
   */
  notice?: string | null;
}

/**
 * What both login pages share: the brand header, the form, what a successful reply does, and the
 * way to an account for someone who has none (the application, and its progress afterwards).
 */
export const LoginShell = ({
  client,
  subtitle,
  identity,
  checking = false,
  notice = null,
}: LoginShellProps) => {
  const finish = useFinishSignIn();
  const login = useLoginMutation(client, identity);
  // The session ended while the app was in use: say so on the page, not only in a passing toast.
  const [params] = useSearchParams();
  const expired = params.get('reason') === LOGIN_AGAIN;

  const submit = (values: LoginFormValues) => {
    login.mutate(values, {
      onSuccess: (reply) => {
        if (!reply.keyId) {
          toastFailure(identityMessages.loginFailed);
          return;
        }
        finish(reply.keyId, identity ? client : 'password');
      },
      // failures were already shown by the api client (0410: 用户名或密码错误)
    });
  };

  return (
    <main
      className={styles.page}
      data-testid="login-page"
      data-client={client}
      data-binding={identity ? 'true' : 'false'}
    >
      <header className={styles.brand}>
        <div className={styles.logo} aria-hidden>
          LW
        </div>
        <h1 className={styles.title}>Linewatch 设备监控</h1>
        <p className={styles.subtitle} data-testid="login-subtitle">
          {subtitle}
        </p>
        {notice ? (
          <p className={styles.notice} data-testid="login-notice">
            {notice}
          </p>
        ) : null}
      </header>
      <section className={styles.card}>
        {expired && !checking ? (
          <p className={styles.reason} role="alert" data-testid="login-reason">
            {webMessages.reLogin}
          </p>
        ) : null}
        {checking ? (
          <div className={styles.checking} data-testid="login-checking">
            正在登录
            <DotLoading />
          </div>
        ) : (
          <LoginForm submitting={login.isPending} onSubmit={submit} />
        )}
      </section>
      {checking ? null : (
        <nav className={styles.apply} data-testid="login-apply">
          没有账号？
          <Link to={paths.userApply} data-testid="login-apply-link">
            申请账号
          </Link>
          <span className={styles.divider} aria-hidden>
            |
          </span>
          <Link to={paths.userAudit} data-testid="login-audit-link">
            查看申请进度
          </Link>
        </nav>
      )}
    </main>
  );
};
