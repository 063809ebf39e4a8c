import type { LoginForm as LoginFormValues } from '@linewatch/contracts/identity';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../../shared/paths.ts';
import { useSession } from '../../../shared/session-store.ts';
import { toastFailure, toastSuccess } from '../../../shared/toast.ts';
import { useLoginMutation, type LoginClient } from '../api.ts';
import { LoginForm } from './login-form.tsx';
import styles from './login-shell.module.css';

interface LoginShellProps {
  client: LoginClient;
  subtitle: string;
}

/** What both login pages share: the brand header, the form, and what a successful reply does. */
export const LoginShell = ({ client, subtitle }: LoginShellProps) => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((state) => state.signIn);
  const login = useLoginMutation(client);

  const submit = (values: LoginFormValues) => {
    login.mutate(values, {
      onSuccess: (reply) => {
        if (!reply.keyId) {
          toastFailure(identityMessages.loginFailed);
          return;
        }
        signIn(reply.keyId);
        toastSuccess(identityMessages.loginOk);
        void navigate(safeRedirect(params.get('redirect')), { replace: true });
      },
      // failures were already shown by the api client (0410: 用户名或密码错误)
    });
  };

  return (
    <main className={styles.page} data-testid="login-page" data-client={client}>
      <header className={styles.brand}>
        <div className={styles.logo} aria-hidden>
          LW
        </div>
        <h1 className={styles.title}>Linewatch 设备监控</h1>
        <p className={styles.subtitle}>{subtitle}</p>
      </header>
      <section className={styles.card}>
        <LoginForm submitting={login.isPending} onSubmit={submit} />
      </section>
    </main>
  );
};
