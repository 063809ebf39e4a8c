import type { SignedInWith } from '@linewatch/contracts/identity';
import { identityMessages } from '@linewatch/contracts/identity-messages';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../shared/paths.ts';
import { useSession } from '../../shared/session-store.ts';
import { toastSuccess } from '../../shared/toast.ts';

/** A login reply with a keyId (code 0000): keep it, say so, and go where the user was going. */
export const useFinishSignIn = () => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signIn = useSession((state) => state.signIn);
  return (keyId: string, signedInWith: SignedInWith) => {
    signIn(keyId, signedInWith);
    toastSuccess(identityMessages.loginOk);
    void navigate(safeRedirect(params.get('redirect')), { replace: true });
  };
};
