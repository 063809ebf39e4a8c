import type { LoginForm as LoginFormValues } from '@linewatch/contracts/identity';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import { DotLoading } from 'antd-mobile';
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
}

/** What both login pages share: the brand header, the form, and what a successful reply does. */
export const LoginShell = ({ client, subtitle, identity, checking = false }: LoginShellProps) => {
  const finish = useFinishSignIn();
  const login = useLoginMutation(client, identity);

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
      </header>
      <section className={styles.card}>
        {checking ? (
          <div className={styles.checking} data-testid="login-checking">
            正在登录
            <DotLoading />
          </div>
        ) : (
          <LoginForm submitting={login.isPending} onSubmit={submit} />
        )}
      </section>
    </main>
  );
};
