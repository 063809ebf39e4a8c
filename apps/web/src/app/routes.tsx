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
import { paths } from '../shared/paths.ts';

const LoginPage = lazyPage(() => import('../features/identity/pages/login-page.tsx'));
const CenterPage = lazyPage(() => import('../features/identity/pages/center-page.tsx'));
const DeviceListPage = lazyPage(() => import('../features/devices/pages/device-list-page.tsx'));
const UserApplyPage = lazyPage(() => import('../features/applications/pages/user-apply-page.tsx'));
const UserAuditPage = lazyPage(() => import('../features/applications/pages/user-audit-page.tsx'));
const AdminGate = lazyPage(() => import('../features/admin/components/admin-gate.tsx'));
const AdminHomePage = lazyPage(() => import('../features/admin/pages/admin-home-page.tsx'));
const AdminUsersPage = lazyPage(() => import('../features/admin/pages/users-page.tsx'));
const AdminApplicationsPage = lazyPage(
  () => import('../features/admin/pages/applications-page.tsx'),
);
const AdminLinesPage = lazyPage(() => import('../features/admin/pages/lines-page.tsx'));
const AdminMachinesPage = lazyPage(() => import('../features/admin/pages/machines-page.tsx'));
const AdminAuditPage = lazyPage(() => import('../features/admin/pages/audit-page.tsx'));
const CurrentDataReportPage = lazyPage(
  () => import('../features/telemetry/pages/current-data-report-page.tsx'),
);

const handle = (title: string, roles?: readonly string[]): RouteHandle =>
  roles ? { title, roles } : { title };

/** A route whose screen is not built yet. Paths are absolute (shared/paths.ts): the root has none. */
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
      { index: true, loader: () => redirect(paths.deviceList) },
      // public
      { path: paths.login, handle: handle('登录'), element: <LoginPage /> },
      { path: paths.userApply, handle: handle('用户申请'), element: <UserApplyPage /> },
      { path: paths.userAudit, handle: handle('审核进度'), element: <UserAuditPage /> },
      notBuilt(paths.faultAlarm, '故障报警'),
      { path: paths.refresh, element: <Refresh /> },
      // main tabs
      {
        element: <TabLayout />,
        children: [
          { ...notBuilt(paths.map, '设备地图', false), handle: handle('设备地图', ['map']) },
          {
            path: paths.deviceList,
            handle: handle('设备列表', ['deviceList']),
            element: <DeviceListPage />,
          },
          { path: paths.center, handle: handle('个人中心', ['center']), element: <CenterPage /> },
        ],
      },
      // one machine
      {
        element: <DeviceLayout />,
        children: [
          {
            path: paths.currentDataReport,
            handle: handle('实时数据'),
            element: <CurrentDataReportPage />,
          },
          notBuilt(paths.deviceHistory, '历史数据', false),
          notBuilt(paths.deviceLog, '设备日志', false),
        ],
      },
      notBuilt(paths.bindDevice, '绑定机台'),
      notBuilt(paths.unboundDevice, '解绑机台'),
      notBuilt(paths.followSetting, '订阅设置'),
      notBuilt(paths.deviceStatistics, '设备统计'),
      notBuilt(paths.threeParam, '日报/周报'),
      {
        ...notBuilt(paths.subscription, '我的订阅'),
        handle: handle('我的订阅', ['msgList', 'subscriptionList']),
      },
      notBuilt(paths.set, '设置'),
      notBuilt(paths.faca, 'FACA'),
      notBuilt(paths.facaAddQuestion, '新增问题'),
      notBuilt(paths.facaEditFaca, '编辑FACA'),
      notBuilt(paths.facaEditFaOrCa, '编辑FA/CA'),
      notBuilt(paths.facaTask, '我的任务'),
      notBuilt(paths.facaEditTask, '任务详情'),
      // administration (admins only; the server refuses anyone else with 0403)
      {
        handle: { admin: true } satisfies RouteHandle,
        element: <AdminGate />,
        children: [
          { path: paths.admin, handle: handle('管理'), element: <AdminHomePage /> },
          { path: paths.adminUsers, handle: handle('用户管理'), element: <AdminUsersPage /> },
          {
            path: paths.adminApplications,
            handle: handle('账号申请'),
            element: <AdminApplicationsPage />,
          },
          { path: paths.adminLines, handle: handle('产线与产品组'), element: <AdminLinesPage /> },
          { path: paths.adminMachines, handle: handle('机台管理'), element: <AdminMachinesPage /> },
          { path: paths.adminAudit, handle: handle('审计日志'), element: <AdminAuditPage /> },
        ],
      },
      { path: '*', handle: handle('页面不存在'), element: <NotFound /> },
    ],
  },
];
