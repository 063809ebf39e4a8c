import { ADMIN_ROLE, GRANTED_ROLES } from '@linewatch/contracts/identity-api';
import { describe, expect, it } from 'vitest';
import { presentProfile } from './presenter.ts';

const account = {
  id: 7,
  psnCode: 'E007',
  name: '张三',
  nickName: '',
  mobile: null,
  isAdmin: false,
  disabled: false,
  passwordHash: 'never shown',
};

describe('identity presenter', () => {
  it('no nickname shows the name; no mobile stays null; the hash is never in the reply', () => {
    const profile = presentProfile({ account, signedInWith: 'password' });
    expect(profile).toEqual({
      userId: 7,
      psnCode: 'E007',
      name: '张三',
      nickName: '张三',
      mobile: null,
      isAdmin: false,
      roles: [...GRANTED_ROLES],
      signedInWith: 'password',
    });
    expect(JSON.stringify(profile)).not.toContain('never shown');
  });

  it('an admin has the fixed roles and admin; how the session began is kept', () => {
    const profile = presentProfile({
      account: { ...account, nickName: '小张', isAdmin: true },
      signedInWith: 'wechat',
    });
    expect(profile).toMatchObject({
      nickName: '小张',
      isAdmin: true,
      roles: [...GRANTED_ROLES, ADMIN_ROLE],
      signedInWith: 'wechat',
    });
  });
});
