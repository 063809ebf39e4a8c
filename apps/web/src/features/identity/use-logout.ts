import { identityMessages } from '@linewatch/contracts/identity-messages';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { call } from '../../shared/api-client.ts';
import { confirmAction } from '../../shared/confirm.ts';
import { paths } from '../../shared/paths.ts';
import { useSession } from '../../shared/session-store.ts';
import { signOutEndpoint } from './api.ts';

/**
 * Logging out, as the personal centre offers it: confirm first (a WeChat or DingTalk session is
 * told its messaging account will be unbound, docs/product.md section 8), then the sign-out that matches how
 * the session signed in, then the login page.
 */
export const useLogout = () => {
  const navigate = useNavigate();
  const signedInWith = useSession((state) => state.signedInWith);
  const logout = useMutation({ mutationFn: () => call(signOutEndpoint(signedInWith), undefined) });

  const confirmLogout = async () => {
    const question =
      signedInWith === 'password'
        ? identityMessages.logoutConfirmPlain
        : identityMessages.logoutConfirm;
    if (!(await confirmAction(question))) return;
    logout.mutate(undefined, {
      onSuccess: () => {
        useSession.getState().clear();
        void navigate(paths.login, { replace: true });
      },
    });
  };

  return { confirmLogout, pending: logout.isPending };
};
