import { TabBar } from 'antd-mobile';
import { EnvironmentOutline, UnorderedListOutline, UserOutline } from 'antd-mobile-icons';
import { Suspense } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../screens/page-loading.tsx';
import styles from './tab-layout.module.css';
import { paths } from '../../shared/paths.ts';
import { badgeOf, useUnreadCount } from '../../shared/unread.ts';

const tabs = [
  { path: paths.map, title: '设备地图', icon: <EnvironmentOutline />, testId: 'tab-map' },
  {
    path: paths.deviceList,
    title: '设备列表',
    icon: <UnorderedListOutline />,
    testId: 'tab-device-list',
  },
  { path: paths.center, title: '个人中心', icon: <UserOutline />, testId: 'tab-center' },
];

/** The main layout: the page above, three tabs at the bottom. */
const TabLayout = () => {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // Unread messages show on the tab that leads to them (个人中心 → 消息).
  const unread = badgeOf(useUnreadCount());
  return (
    <div className={styles.layout}>
      <main className={styles.content}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      {/* The tab bar is fixed in place: the nav only names it for screen readers. */}
      <nav aria-label="主导航">
        <TabBar
          className={styles.tabBar}
          activeKey={pathname}
          safeArea
          onChange={(path) => {
            if (path !== pathname) void navigate(path);
          }}
          data-testid="tab-bar"
        >
          {tabs.map((tab) => (
            <TabBar.Item
              key={tab.path}
              icon={tab.icon}
              title={tab.title}
              badge={tab.path === paths.center ? unread : undefined}
              data-testid={tab.testId}
            />
          ))}
        </TabBar>
      </nav>
    </div>
  );
};

export default TabLayout;
