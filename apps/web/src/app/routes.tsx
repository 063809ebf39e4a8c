import { redirect, type RouteObject } from 'react-router';
import { guardLoader } from './guard-loader.ts';
import { lazyPage } from './lazy-page.ts';
import { DeviceLayout } from './layouts/device-layout.tsx';
import { RootLayout } from './layouts/root-layout.tsx';
import { TabLayout } from './layouts/tab-layout.tsx';
import type { RouteHandle } from './route-handle.ts';
import { NotBuilt } from './screens/not-built.tsx';
import { NotFound } from './screens/not-found.tsx';
import { PageLoading } from './screens/page-loading.tsx';
import { Refresh } from './screens/refresh.tsx';
import { RouteError } from './screens/route-error.tsx';

const LoginPage = lazyPage(() => import('../features/identity/pages/login-page.tsx'));
const CenterPage = lazyPage(() => import('../features/identity/pages/center-page.tsx'));
const DeviceListPage = lazyPage(() => import('../features/devices/pages/device-list-page.tsx'));
const CurrentDataReportPage = lazyPage(
  () => import('../features/telemetry/pages/current-data-report-page.tsx'),
);

const handle = (title: string, roles?: readonly string[]): RouteHandle =>
  roles ? { title, roles } : { title };

/** A route whose screen is not built yet. */
const notBuilt = (path: string, title: string, standalone = true): RouteObject => ({
  path,
  handle: handle(title),
  element: <NotBuilt standalone={standalone} />,
});

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    loader: guardLoader,
    // The guard runs on every navigation, not only when the root's params change.
    shouldRevalidate: () => true,
    HydrateFallback: PageLoading,
    errorElement: <RouteError />,
    children: [
      { index: true, loader: () => redirect('/deviceList') },
      // public
      { path: 'login', handle: handle('登录'), element: <LoginPage /> },
      notBuilt('userApply', '用户申请'),
      notBuilt('userAudit', '审核进度'),
      notBuilt('faultAlarm', '故障报警'),
      { path: 'refresh', element: <Refresh /> },
      // main tabs
      {
        element: <TabLayout />,
        children: [
          { ...notBuilt('map', '设备地图', false), handle: handle('设备地图', ['map']) },
          {
            path: 'deviceList',
            handle: handle('设备列表', ['deviceList']),
            element: <DeviceListPage />,
          },
          { path: 'center', handle: handle('个人中心', ['center']), element: <CenterPage /> },
        ],
      },
      // one machine
      {
        element: <DeviceLayout />,
        children: [
          {
            path: 'currentDataReport',
            handle: handle('实时数据'),
            element: <CurrentDataReportPage />,
          },
          notBuilt('deviceHistory', '历史数据', false),
          notBuilt('deviceLog', '设备日志', false),
        ],
      },
      notBuilt('bindDevice', '绑定机台'),
      notBuilt('unboundDevice', '解绑机台'),
      notBuilt('followSetting', '订阅设置'),
      notBuilt('deviceStatistics', '设备统计'),
      notBuilt('threeParam', '日报/周报'),
      {
        ...notBuilt('subscription', '我的订阅'),
        handle: handle('我的订阅', ['msgList', 'subscriptionList']),
      },
      notBuilt('set', '设置'),
      notBuilt('faca', 'FACA'),
      notBuilt('faca/addQuestion', '新增问题'),
      notBuilt('faca/editFACA', '编辑FACA'),
      notBuilt('faca/editFAOrCA', '编辑FA/CA'),
      notBuilt('faca/task', '我的任务'),
      notBuilt('faca/editTask', '任务详情'),
      { path: '*', handle: handle('页面不存在'), element: <NotFound /> },
    ],
  },
];
