import { List } from 'antd-mobile';
import { CloseCircleOutline, LinkOutline, SetOutline, UserOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useSession } from '../../../shared/session-store.ts';
import { useLogout } from '../use-logout.ts';
import styles from './center-page.module.css';
import { paths } from '../../../shared/paths.ts';

const CenterPage = () => {
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  const { confirmLogout, pending } = useLogout();

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
        <List.Item prefix={<SetOutline />} data-testid="center-settings" arrowIcon={false}>
          设置
        </List.Item>
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
