import { NavBar } from 'antd-mobile';
import { Suspense } from 'react';
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageLoading } from '../screens/page-loading.tsx';
import styles from './device-layout.module.css';
import { TabBar } from '../../shared/components/tab-bar.tsx';
import { paths } from '../../shared/paths.ts';

const tabs = [
  { path: paths.currentDataReport, title: '实时数据', testId: 'device-tab-realtime' },
  { path: paths.deviceHistory, title: '历史数据', testId: 'device-tab-history' },
  { path: paths.deviceLog, title: '设备日志', testId: 'device-tab-log' },
].map(({ path, title, testId }) => ({
  key: path,
  title: <span data-testid={testId}>{title}</span>,
}));

/** One machine's pages: top bar back to the list, three tabs that carry ?snCode. */
const DeviceLayout = () => {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const snCode = params.get('snCode');
  const search = snCode ? `?${new URLSearchParams({ snCode }).toString()}` : '';

  return (
    <div className={styles.layout}>
      <div className={styles.top}>
        <NavBar onBack={() => void navigate(paths.deviceList)} data-testid="device-navbar">
          设备数据
        </NavBar>
        <TabBar
          tabs={tabs}
          // /threeParam is the history page opened from a message link.
          activeKey={pathname === paths.threeParam ? paths.deviceHistory : pathname}
          onChange={(path) => void navigate({ pathname: path, search }, { replace: true })}
        />
      </div>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </div>
  );
};

export default DeviceLayout;
