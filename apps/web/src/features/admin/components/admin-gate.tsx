import { messages } from '@linewatch/contracts/envelope';
import { DotLoading } from 'antd-mobile';
import { LockOutline } from 'antd-mobile-icons';
import { Outlet } from 'react-router';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { useAccessQuery } from '../api.ts';

/**
 * The admin routes' gate (their route handle says `admin: true`): a non-admin sees 无权查看
 * instead of the page. The server refuses them anyway (0403); this spares them a broken screen.
 */
const AdminGate = () => {
  const access = useAccessQuery();
  if (access.isPending) return <DotLoading />;
  if (!access.data?.isAdmin)
    return (
      <BlankState icon={<LockOutline />} title={messages.forbidden} testId="admin-forbidden" />
    );
  return <Outlet />;
};

export default AdminGate;
