import { List } from 'antd-mobile';
import {
  FileOutline,
  HistogramOutline,
  SendOutline,
  SetOutline,
  TeamOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { AdminPage } from '../components/admin-page.tsx';
import { useApplicationsQuery } from '../api.ts';

const AdminHomePage = () => {
  const navigate = useNavigate();
  const pending = useApplicationsQuery().data?.filter((a) => a.status === 'pending').length ?? 0;
  const items = [
    { path: paths.adminUsers, title: '用户管理', icon: <TeamOutline /> },
    {
      path: paths.adminApplications,
      title: '账号申请',
      icon: <FileOutline />,
      extra: pending ? `${pending} 待审核` : undefined,
    },
    { path: paths.adminLines, title: '产线与产品组', icon: <UnorderedListOutline /> },
    { path: paths.adminMachines, title: '机台管理', icon: <SetOutline /> },
    { path: paths.adminGateways, title: '网关管理', icon: <SendOutline /> },
    { path: paths.adminAudit, title: '审计日志', icon: <HistogramOutline /> },
  ];
  return (
    <AdminPage title="管理" back={paths.center} testId="admin-home">
      <List>
        {items.map((item) => (
          <List.Item
            key={item.path}
            prefix={item.icon}
            extra={item.extra}
            onClick={() => void navigate(item.path)}
            data-testid={`admin-link-${item.path.split('/').pop()}`}
          >
            {item.title}
          </List.Item>
        ))}
      </List>
    </AdminPage>
  );
};

export default AdminHomePage;
