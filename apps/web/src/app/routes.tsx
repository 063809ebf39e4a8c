import { redirect, type RouteObject } from 'react-router';
import { guardLoader } from './guard-loader.ts';
import { lazyPage, preloadMatchedPages } from './lazy-page.ts';
import { RootLayout } from './layouts/root-layout.tsx';
import type { RouteHandle } from './route-handle.ts';
import { NotFound } from './screens/not-found.tsx';
import { PageLoading } from './screens/page-loading.tsx';
import { Refresh } from './screens/refresh.tsx';
import { RouteError } from './screens/route-error.tsx';
import { links, paths } from '../shared/paths.ts';

// The layouts too: a tab page needs no device tabs (whose ink bar animates with react-spring), and
// the many pages under neither need no tab bar.
const TabLayout = lazyPage(() => import('./layouts/tab-layout.tsx'));
const DeviceLayout = lazyPage(() => import('./layouts/device-layout.tsx'));
const LoginPage = lazyPage(() => import('../features/identity/pages/login-page.tsx'));
const CenterPage = lazyPage(() => import('../features/identity/pages/center-page.tsx'));
const DeviceListPage = lazyPage(() => import('../features/devices/pages/device-list-page.tsx'));
const MapPage = lazyPage(() => import('../features/map/pages/map-page.tsx'));
const StatisticsPage = lazyPage(() => import('../features/statistics/pages/statistics-page.tsx'));
const BindDevicePage = lazyPage(() => import('../features/gateways/pages/bind-device-page.tsx'));
const UnbindDevicePage = lazyPage(
  () => import('../features/gateways/pages/unbind-device-page.tsx'),
);
const AdminGatewaysPage = lazyPage(
  () => import('../features/gateways/pages/admin-gateways-page.tsx'),
);
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
const DeviceHistoryPage = lazyPage(
  () => import('../features/history/pages/device-history-page.tsx'),
);
const DeviceLogPage = lazyPage(() => import('../features/history/pages/device-log-page.tsx'));

const FacaListPage = lazyPage(() => import('../features/faca/pages/faca-list-page.tsx'));
const AddQuestionPage = lazyPage(() => import('../features/faca/pages/add-question-page.tsx'));
const EditFacaPage = lazyPage(() => import('../features/faca/pages/edit-faca-page.tsx'));
const EditFaOrCaPage = lazyPage(() => import('../features/faca/pages/edit-fa-or-ca-page.tsx'));
const TaskListPage = lazyPage(() => import('../features/faca/pages/task-list-page.tsx'));
const TaskDetailPage = lazyPage(() => import('../features/faca/pages/task-detail-page.tsx'));

const FaultAlarmPage = lazyPage(() => import('../features/cases/pages/fault-alarm-page.tsx'));
const FollowSettingPage = lazyPage(
  () => import('../features/subscriptions/pages/follow-setting-page.tsx'),
);
const SubscriptionPage = lazyPage(
  () => import('../features/subscriptions/pages/subscription-page.tsx'),
);
const MessagesPage = lazyPage(() => import('../features/alerts/pages/messages-page.tsx'));
const ReportPage = lazyPage(() => import('../features/alerts/pages/report-page.tsx'));
const SetPage = lazyPage(() => import('../features/alerts/pages/set-page.tsx'));

const handle = (title: string, roles?: readonly string[]): RouteHandle =>
  roles ? { title, roles } : { title };

/**
 * A report of one machine goes back to that machine's page; of several, or none, to 个人中心
 * (where the user's messages and subscriptions are).
 */
const reportParent = (query: URLSearchParams): string => {
  const snCodes = (query.get('snCode') ?? '').split(',').filter(Boolean);
  return snCodes.length === 1 ? links.currentDataReport(snCodes[0]!) : paths.center;
};

/** An FA or CA form goes back to its question's FACA page. */
const faOrCaParent = (query: URLSearchParams): string => {
  const id = Number(query.get('facaInfoId'));
  return Number.isInteger(id) && id > 0 ? links.facaEditFaca(id) : paths.faca;
};

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    loader: (args) => {
      // The guard's session request goes out first (HTTP/1.1 queues the rest behind it), then the
      // chunks of the layout and page this URL shows, which download while the guard waits.
      const decision = guardLoader(args);
      preloadMatchedPages(routes, new URL(args.request.url).pathname);
      return decision;
    },
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
      { path: paths.faultAlarm, handle: handle('故障报警'), element: <FaultAlarmPage /> },
      { path: paths.refresh, element: <Refresh /> },
      // main tabs
      {
        element: <TabLayout />,
        children: [
          { path: paths.map, handle: handle('设备地图', ['map']), element: <MapPage /> },
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
          { path: paths.deviceHistory, handle: handle('历史数据'), element: <DeviceHistoryPage /> },
          // Opened from a message link (?snCode=…&code=…: the guard takes the code to sign-in).
          { path: paths.threeParam, handle: handle('历史数据'), element: <DeviceHistoryPage /> },
          { path: paths.deviceLog, handle: handle('设备日志'), element: <DeviceLogPage /> },
        ],
      },
      {
        path: paths.bindDevice,
        handle: { ...handle('绑定机台'), parent: paths.center },
        element: <BindDevicePage />,
      },
      {
        path: paths.unboundDevice,
        handle: { ...handle('解绑机台'), parent: paths.center },
        element: <UnbindDevicePage />,
      },
      {
        path: paths.followSetting,
        handle: { ...handle('订阅设置'), parent: paths.subscription },
        element: <FollowSettingPage />,
      },
      {
        path: paths.deviceStatistics,
        handle: { ...handle('设备统计'), parent: paths.deviceList },
        element: <StatisticsPage />,
      },
      {
        path: paths.subscription,
        handle: { ...handle('我的订阅', ['msgList', 'subscriptionList']), parent: paths.set },
        element: <SubscriptionPage />,
      },
      {
        path: paths.set,
        handle: { ...handle('设置'), parent: paths.center },
        element: <SetPage />,
      },
      {
        path: paths.messages,
        handle: { ...handle('消息', ['msgList']), parent: paths.center },
        element: <MessagesPage />,
      },
      {
        path: paths.report,
        handle: { ...handle('日报/周报'), parent: reportParent },
        element: <ReportPage />,
      },
      {
        path: paths.faca,
        handle: { ...handle('FACA'), parent: paths.center },
        element: <FacaListPage />,
      },
      {
        path: paths.facaAddQuestion,
        handle: { ...handle('新增问题'), parent: paths.faca },
        element: <AddQuestionPage />,
      },
      {
        path: paths.facaEditFaca,
        handle: { ...handle('编辑FACA'), parent: paths.faca },
        element: <EditFacaPage />,
      },
      {
        path: paths.facaEditFaOrCa,
        handle: { ...handle('编辑FA/CA'), parent: faOrCaParent },
        element: <EditFaOrCaPage />,
      },
      {
        path: paths.facaTask,
        handle: { ...handle('我的任务'), parent: paths.center },
        element: <TaskListPage />,
      },
      {
        path: paths.facaEditTask,
        handle: { ...handle('任务详情'), parent: paths.facaTask },
        element: <TaskDetailPage />,
      },
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
          { path: paths.adminGateways, handle: handle('网关管理'), element: <AdminGatewaysPage /> },
        ],
      },
      { path: '*', handle: handle('页面不存在'), element: <NotFound /> },
    ],
  },
];
