import { ADMIN_ROLE, GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import type { UserProfile } from '@linewatch/contracts/identity';
import type { SignedInAccount } from './service.ts';

/** The account behind a session, with the spec's fixed roles (and `admin` for admins); no nickname shows the name. */
export const presentProfile = ({ account, signedInWith }: SignedInAccount): UserProfile => ({
  userId: account.id,
  psnCode: account.psnCode,
  name: account.name,
  nickName: account.nickName || account.name,
  mobile: account.mobile,
  isAdmin: account.isAdmin,
  roles: account.isAdmin ? [...GRANTED_ROLES, ADMIN_ROLE] : [...GRANTED_ROLES],
  signedInWith,
});
