import { adminApi } from '@linewatch/contracts/admin-api';
import { useQuery } from '@tanstack/react-query';
import { Badge, List } from 'antd-mobile';
import {
  CloseCircleOutline,
  FileOutline,
  LinkOutline,
  MessageOutline,
  SetOutline,
  UnorderedListOutline,
  UserOutline,
  UserSetOutline,
} from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { call } from '../../../shared/api-client.ts';
import { queryKeys } from '../../../shared/query-keys.ts';
import { useSession } from '../../../shared/session-store.ts';
import { badgeOf, useUnreadCount } from '../../../shared/unread.ts';
import { useLogout } from '../use-logout.ts';
import styles from './center-page.module.css';
import { paths } from '../../../shared/paths.ts';

const CenterPage = () => {
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  const { confirmLogout, pending } = useLogout();
  const unread = badgeOf(useUnreadCount());
  // Whether to offer 管理: asked of the server, which decides (the admin pages check again).
  const isAdmin = useQuery({
    queryKey: queryKeys.admin.access(),
    queryFn: () => call(adminApi.access, undefined),
  }).data?.isAdmin;

  return (
    <div className={styles.page}>
      <header className={styles.profile}>
        <div className={styles.avatar} aria-hidden>
          <UserOutline />
        </div>
        <div>
          <div className={styles.nickname} data-testid="center-nickname">
            {user?.nickName || user?.name || '--'}
          </div>
          {user?.name && user.name !== user.nickName ? (
            <div className={styles.name}>{user.name}</div>
          ) : null}
        </div>
      </header>
      <List className={styles.list}>
        <List.Item
          prefix={<LinkOutline />}
          data-testid="center-bind"
          onClick={() => void navigate(paths.bindDevice)}
        >
          绑定机台
        </List.Item>
        <List.Item
          prefix={<LinkOutline className={styles.unbindIcon} />}
          data-testid="center-unbind"
          onClick={() => void navigate(paths.unboundDevice)}
        >
          解绑机台
        </List.Item>
        <List.Item
          prefix={<FileOutline />}
          data-testid="center-faca"
          onClick={() => void navigate(paths.faca)}
        >
          FACA
        </List.Item>
        <List.Item
          prefix={<UnorderedListOutline />}
          data-testid="center-tasks"
          onClick={() => void navigate(paths.facaTask)}
        >
          我的任务
        </List.Item>
        <List.Item
          prefix={<MessageOutline />}
          data-testid="center-messages"
          extra={unread ? <Badge content={unread} data-testid="center-messages-unread" /> : null}
          onClick={() => void navigate(paths.messages)}
        >
          消息
        </List.Item>
        <List.Item
          prefix={<SetOutline />}
          data-testid="center-settings"
          onClick={() => void navigate(paths.set)}
        >
          设置
        </List.Item>
        {isAdmin ? (
          <List.Item
            prefix={<UserSetOutline />}
            data-testid="center-admin"
            onClick={() => void navigate(paths.admin)}
          >
            管理
          </List.Item>
        ) : null}
      </List>
      <List className={styles.list}>
        <List.Item
          prefix={<CloseCircleOutline />}
          data-testid="logout"
          className={styles.logout}
          arrowIcon={false}
          disabled={pending}
          onClick={() => void confirmLogout()}
        >
          退出登录
        </List.Item>
      </List>
    </div>
  );
};

export default CenterPage;
